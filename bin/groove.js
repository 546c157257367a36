#!/usr/bin/env node
// The bin shim: runs the CLI and sets the exit code; nothing else calls process.exit.
import { runCli } from '../dist/src/cli/main.js';

const io = { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
process.exitCode = await runCli(process.argv.slice(2), io);
