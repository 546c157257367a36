#!/usr/bin/env node
// The bin shim: runs the CLI and sets the exit code; nothing else calls process.exit.
// A search is the one command whose wall time is mostly model loading, so its inference thread starts importing
// the model library before the CLI's own modules load (a lexical-only index leaves it unused; it is stopped).
const prestart = process.argv[2] === 'search' ? await import('../dist/src/models/worker-embedder.js') : null;
prestart?.prestartInferenceThread();
const { runCli } = await import('../dist/src/cli/main.js');

const io = { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
process.exitCode = await runCli(process.argv.slice(2), io);
await prestart?.discardPrestartedThread();
