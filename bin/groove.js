#!/usr/bin/env node
// The bin shim: runs the CLI and sets the exit code; nothing else calls process.exit.
// It loads the CLI from dist/bundle (scripts/bundle-cli.ts: a few files instead of hundreds of modules).
// A search that will embed its query with a local model starts its inference thread before the CLI's own modules
// load, so the thread imports the model library meanwhile (src/cli/search-prestart.ts decides; a lexical-only
// search, or one a running `groove serve` for the index will answer, starts none and never loads the model
// libraries).
// A promise rejected with nobody to handle it (a library that forgets to await, a bug of ours) ends the command
// with one `groove: error:` line and exit status 1, like any other failure; its stack only with GROOVE_DEBUG set.
process.on('unhandledRejection', (reason) => {
  const text =
    typeof reason?.toLine === 'function'
      ? reason.toLine()
      : reason instanceof Error
        ? reason.message
        : String(reason);
  process.stderr.write(`groove: error: ${text.replace(/\s*[\u0000-\u001f\u007f]+\s*/g, ' ').trim()}\n`);
  if (process.env.GROOVE_DEBUG && reason instanceof Error && reason.stack)
    process.stderr.write(`${reason.stack}\n`);
  process.exit(1);
});
// A reader that stops early (`groove search --help | head`) closes the pipe: end quietly, as a filter does.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});
const io = { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
const prestart = process.argv[2] === 'search' ? await import('../dist/bundle/search-prestart.js') : null;
await prestart?.prestartForSearch(process.argv.slice(3), io);
const { runCli } = await import('../dist/bundle/main.js');

process.exitCode = await runCli(process.argv.slice(2), io);
await prestart?.stopUnusedPrestart();
