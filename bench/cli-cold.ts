// Cold CLI search: `groove search` as a fresh process (node bin/groove.js, built dist), median of N, beside
// baselines measured in the same run and interleaved with it: `node -e 0`, importing the CLI's module graph,
// and importing @huggingface/transformers — so the gap between them says where a cold search spends its time.
// measureCliPaths (and `npm run bench:cli-cold`) times the two ways a cold search can be answered — in-process
// (--no-server) and through a running `groove serve` for the index — lexical-only and hybrid, optionally beside
// another build of the CLI (--old-bin, e.g. the commit before) both ways, all interleaved with `node -e 0`.
// Run: npm run bench:cli-cold [-- --runs 20 --dataset small|scifact|all --old-bin /path/to/old/bin/groove.js]

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeTestModel } from '../scripts/test-model/write-test-model.js';
import { createEmbedderFor } from '../src/app/index.js';
import { resolveConfig } from '../src/config/resolve-config.js';
import { randomVectorEmbedder, timeIndex } from './bench-kb.js';
import { type ServeProcess, startServe } from './serve-process.js';
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

function runProcess(args: string[], env: Record<string, string> = {}) {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, GROOVE_OFFLINE: '1', NO_COLOR: '1', ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - started;
  if (result.status !== 0) {
    throw new Error(`cold run failed (exit ${result.status}): node ${args.join(' ')}\n${result.stderr}`);
  }
  return { ms, stdout: result.stdout, stderr: result.stderr };
}

function timeProcess(args: string[], check?: (stdout: string) => void): number {
  const { ms, stdout } = runProcess(args);
  check?.(stdout);
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
    '--no-server',
  ];
  const importCli = `await import(${JSON.stringify(path.join(repoRoot, 'dist/bundle/main.js'))})`;
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

/** One index's cold-search timings: in-process, through its running server, and the other build's CLI both ways. */
export interface CliPathTimings {
  in_process_ms: Timing;
  through_serve_ms: Timing;
  /** The other build's CLI with the server running (it may answer through it). */
  old_cli_ms: Timing | null;
  /** The other build's CLI with --no-server. */
  old_in_process_ms: Timing | null;
}

export interface CliPathsReport {
  kb: string;
  chunks_note: string;
  runs: number;
  query: string;
  load_average_1m_before: number;
  load_average_1m_after: number;
  node_e0_ms: Timing;
  lexical: CliPathTimings;
  hybrid: CliPathTimings;
}

interface PathIndex {
  dbPath: string;
  /** The model folder of a hybrid index; null for lexical-only. */
  modelDir: string | null;
}

/**
 * Cold `groove search` on a lexical-only and a hybrid index of one KB, each in-process (--no-server), through a
 * running `groove serve` of that index, and with `oldBin` (another build's bin/groove.js) when given — every
 * round interleaved with `node -e 0`. The serves' sockets go to a private GROOVE_RUNTIME_DIR.
 */
export async function measureCliPaths(options: {
  kbPath: string;
  lexical: PathIndex;
  hybrid: PathIndex;
  query: string;
  runs: number;
  oldBin: string | null;
}): Promise<Omit<CliPathsReport, 'kb' | 'chunks_note'>> {
  const runtimeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-bench-run-'));
  const env = { GROOVE_RUNTIME_DIR: runtimeDir };
  const args = (bin: string, index: PathIndex) => [
    bin,
    'search',
    options.query,
    '--kb-path',
    options.kbPath,
    '--db-path',
    index.dbPath,
    ...(index.modelDir ? ['--model-dir', index.modelDir] : ['--model', 'none']),
    '--format',
    'json',
    '--limit',
    '10',
  ];
  const loadBefore = os.loadavg()[0]!;
  const serves: ServeProcess[] = [];
  process.env.GROOVE_RUNTIME_DIR = runtimeDir; // the serves inherit it
  try {
    for (const index of [options.lexical, options.hybrid])
      serves.push(await startServe({ kbPath: options.kbPath, ...index, watch: false }));
    const kinds = { lexical: options.lexical, hybrid: options.hybrid };
    const samples: Record<string, number[]> = { e0: [] };
    const time = (key: string, argv: string[]) => {
      const run = runProcess(argv, env);
      expectHits(run.stdout);
      samples[key] = [...(samples[key] ?? []), run.ms];
    };
    for (const [kind, index] of Object.entries(kinds)) {
      // A through-serve run that was answered in-process would time the wrong thing: check once, verbosely.
      const check = runProcess(args(binPath, index), { ...env, GROOVE_DEBUG: '1' });
      if (!check.stderr.includes('answered by groove serve'))
        throw new Error(`the ${kind} serve did not answer:\n${check.stderr}`);
      runProcess([...args(binPath, index), '--no-server'], env); // page cache warm, as on a user's machine
    }
    for (let run = 0; run < options.runs; run++) {
      samples.e0!.push(runProcess(['-e', '0']).ms);
      for (const [kind, index] of Object.entries(kinds)) {
        time(`${kind}.in_process`, [...args(binPath, index), '--no-server']);
        time(`${kind}.through_serve`, args(binPath, index));
        if (options.oldBin) {
          time(`${kind}.old`, args(options.oldBin, index));
          time(`${kind}.old_in_process`, [...args(options.oldBin, index), '--no-server']);
        }
      }
    }
    const timings = (kind: string): CliPathTimings => ({
      in_process_ms: summarise(samples[`${kind}.in_process`]!),
      through_serve_ms: summarise(samples[`${kind}.through_serve`]!),
      old_cli_ms: options.oldBin ? summarise(samples[`${kind}.old`]!) : null,
      old_in_process_ms: options.oldBin ? summarise(samples[`${kind}.old_in_process`]!) : null,
    });
    return {
      runs: options.runs,
      query: options.query,
      load_average_1m_before: loadBefore,
      load_average_1m_after: os.loadavg()[0]!,
      node_e0_ms: summarise(samples.e0!),
      lexical: timings('lexical'),
      hybrid: timings('hybrid'),
    };
  } finally {
    for (const serve of serves) await serve.stop();
    delete process.env.GROOVE_RUNTIME_DIR;
    fs.rmSync(runtimeDir, { recursive: true, force: true });
  }
}

const DATASETS: Record<string, { kbPath: string; query: string }> = {
  small: { kbPath: path.join(repoRoot, 'examples/sample-kb'), query: 'reset password' },
  scifact: {
    kbPath: path.resolve(repoRoot, '../shared/eval/scifact/kb'),
    query: 'vitamin D deficiency and bone density',
  },
};

/** Index one KB lexical-only and with the generated MiniLM-shaped model (stand-in document vectors). */
async function buildIndexes(kbPath: string, workDir: string, modelDir: string) {
  const real = (await createEmbedderFor(resolveConfig({ cwd: workDir, env: {}, overrides: { modelDir } })))!;
  const lexical = { dbPath: path.join(workDir, 'lexical.db'), modelDir: null };
  const hybrid = { dbPath: path.join(workDir, 'hybrid.db'), modelDir };
  await timeIndex(kbPath, lexical.dbPath, null, null);
  const built = await timeIndex(kbPath, hybrid.dbPath, modelDir, randomVectorEmbedder(real));
  await real.close();
  return { lexical, hybrid, chunks: built.chunks };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '20' },
      dataset: { type: 'string', default: 'all' },
      'old-bin': { type: 'string' },
    },
  });
  const names = values.dataset === 'all' ? Object.keys(DATASETS) : [values.dataset];
  const workRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-bench-cli-cold-'));
  const modelDir = path.join(workRoot, 'minilm-l6');
  writeTestModel({ kind: 'embed', shape: 'minilm-l6', outDir: modelDir });
  const reports: CliPathsReport[] = [];
  try {
    for (const name of names) {
      const dataset = DATASETS[name];
      if (!dataset || !fs.existsSync(dataset.kbPath)) throw new Error(`dataset "${name}" not found`);
      const workDir = fs.mkdtempSync(path.join(workRoot, `${name}-`));
      const { lexical, hybrid, chunks } = await buildIndexes(dataset.kbPath, workDir, modelDir);
      const measured = await measureCliPaths({
        kbPath: dataset.kbPath,
        lexical,
        hybrid,
        query: dataset.query,
        runs: Number(values.runs),
        oldBin: values['old-bin'] ? path.resolve(values['old-bin']) : null,
      });
      const report = { kb: name, chunks_note: `${chunks} chunks`, ...measured };
      reports.push(report);
      printPaths(report);
    }
    console.log(JSON.stringify({ node: process.version, cpus: os.availableParallelism(), reports }, null, 2));
  } finally {
    fs.rmSync(workRoot, { recursive: true, force: true });
  }
}

function printPaths(report: CliPathsReport): void {
  const e0 = report.node_e0_ms.median;
  const cell = (t: Timing | null) =>
    t ? `${t.median.toFixed(0)} ms (${(t.median / e0).toFixed(1)}× node -e 0)` : '—';
  console.log(
    `\n${report.kb} (${report.chunks_note}), ${report.runs} interleaved runs, load ${report.load_average_1m_before.toFixed(1)} → ${report.load_average_1m_after.toFixed(1)}; node -e 0: ${e0.toFixed(0)} ms`,
  );
  for (const kind of ['lexical', 'hybrid'] as const) {
    const t = report[kind];
    console.log(
      `  ${kind.padEnd(8)} in-process ${cell(t.in_process_ms)} | through serve ${cell(t.through_serve_ms)} | old CLI in-process ${cell(t.old_in_process_ms)}, through serve ${cell(t.old_cli_ms)}`,
    );
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
