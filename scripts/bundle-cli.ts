// Build step after tsc (`npm run build`): bundles the CLI from the compiled dist/src into dist/bundle, so a cold
// `groove …` reads a few files instead of resolving and loading hundreds of modules one by one.
// - Entries: the CLI (main.js), the cold-search prestart (search-prestart.js), the inference thread's and the
//   extraction process's entry points, which the code starts as `new URL('./<name>.js', import.meta.url)`: every
//   output file sits flat in one folder, so that URL resolves from whichever chunk holds the caller.
// - Code splitting keeps each lazily imported module (command modules, the MCP server, model adapters, extractors,
//   the PostgreSQL store, report renderers) in chunks loaded only by the commands that import them.
// - Packages with native code or files found at run time relative to their own folder stay external and load
//   from node_modules as before; createRequire-based loads (mammoth, exceljs, tree-sitter) are runtime requires
//   and stay there too.
// Usage: tsx scripts/bundle-cli.ts (dist/src must be built first).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const compiled = path.join(repoRoot, 'dist/src');
const outdir = path.join(repoRoot, 'dist/bundle');

/** Output name → compiled module. bin/groove.js imports the first two; the threads are started by URL. */
const ENTRIES = {
  main: 'cli/main.js',
  'search-prestart': 'cli/search-prestart.js',
  'embedder-worker': 'models/embedder-worker.js',
  'extract-worker': 'fs/extract/extract-worker.js',
};

/** Native addons, packages that locate their own files at run time, and optional peers they may require. */
const EXTERNAL = [
  'better-sqlite3',
  'sqlite-vec',
  '@huggingface/transformers',
  'onnxruntime-node',
  'onnxruntime-common',
  'sharp',
  'pdfjs-dist',
  'pg',
  'pg-native',
  'pgvector',
  '@vscode/tree-sitter-wasm',
  'mammoth',
  'exceljs',
];

/** CommonJS packages inside an ESM bundle call require() for Node built-ins: give each chunk one. */
const REQUIRE_SHIM =
  "import { createRequire as createGrooveRequire } from 'node:module'; const require = createGrooveRequire(import.meta.url);";

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(compiled, ENTRIES.main))) {
    throw new Error(`${path.join(compiled, ENTRIES.main)} is missing: run tsc -p tsconfig.build.json first`);
  }
  fs.rmSync(outdir, { recursive: true, force: true }); // chunk names are content hashes: drop the old ones
  const entryPoints = Object.fromEntries(
    Object.entries(ENTRIES).map(([name, file]) => [name, path.join(compiled, file)]),
  );
  await build({
    entryPoints,
    outdir,
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    banner: { js: REQUIRE_SHIM },
    legalComments: 'eof',
    logLevel: 'warning',
  });
}

await main();
