// Cold CLI search: `groove search` as a fresh process (node bin/groove.js, built dist), median of N, beside
// baselines measured in the same run and interleaved with it: `node -e 0`, importing the CLI's module graph,
// and importing @huggingface/transformers — so the gap between them says where a cold search spends its time.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarise, type Timing } from './vector-scan.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const binPath = path.join(repoRoot, 'bin/groove.js');

export interface ColdCliReport {
  runs: number;
  query: string;
  node_e0_ms: Timing;
  import_cli_ms: Timing;
  import_transformers_ms: Timing;
  search_ms: Timing;
  /** The same search on the lexical-only index of the same KB (no model to load). */
  search_lexical_only_ms: Timing | null;
  search_vs_node_e0: number;
}

function timeProcess(args: string[], check?: (stdout: string) => void): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, GROOVE_OFFLINE: '1', NO_COLOR: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - started;
  if (result.status !== 0) {
    throw new Error(`cold run failed (exit ${result.status}): node ${args.join(' ')}\n${result.stderr}`);
  }
  check?.(result.stdout);
  return ms;
}

/** A search that printed no hits means the setup is broken, not that it is fast. */
function expectHits(stdout: string): void {
  const parsed = JSON.parse(stdout) as { results?: unknown[] };
  if (!parsed.results || parsed.results.length === 0) throw new Error('cold search returned no results');
}

export function measureColdCli(options: {
  kbPath: string;
  dbPath: string;
  lexicalDbPath: string | null;
  query: string;
  runs: number;
}): ColdCliReport {
  const search = (dbPath: string) => [
    binPath,
    'search',
    options.query,
    '--kb-path',
    options.kbPath,
    '--db-path',
    dbPath,
    '--format',
    'json',
    '--limit',
    '10',
  ];
  const importCli = `await import(${JSON.stringify(path.join(repoRoot, 'dist/src/cli/main.js'))})`;
  const samples: Record<'e0' | 'cli' | 'tf' | 'search' | 'lexical', number[]> = {
    e0: [],
    cli: [],
    tf: [],
    search: [],
    lexical: [],
  };
  timeProcess(search(options.dbPath), expectHits); // page cache and compile cache warm, as on a user's machine
  for (let run = 0; run < options.runs; run++) {
    samples.e0.push(timeProcess(['-e', '0']));
    samples.cli.push(timeProcess(['--input-type=module', '-e', importCli]));
    samples.tf.push(timeProcess(['--input-type=module', '-e', "await import('@huggingface/transformers')"]));
    samples.search.push(timeProcess(search(options.dbPath), expectHits));
    if (options.lexicalDbPath) samples.lexical.push(timeProcess(search(options.lexicalDbPath), expectHits));
  }
  const searchMs = summarise(samples.search);
  const e0 = summarise(samples.e0);
  return {
    runs: options.runs,
    query: options.query,
    node_e0_ms: e0,
    import_cli_ms: summarise(samples.cli),
    import_transformers_ms: summarise(samples.tf),
    search_ms: searchMs,
    search_lexical_only_ms: samples.lexical.length > 0 ? summarise(samples.lexical) : null,
    search_vs_node_e0: searchMs.median / e0.median,
  };
}
