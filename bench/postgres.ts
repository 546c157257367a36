// SQLite and PostgreSQL side by side on one synthetic KB (default 100k chunks), in the same run:
//   a first index on each (`groove index`, lexical-only: Debian's PostgreSQL 15 has no pgvector) — docs/s, chunks/s
//   search p50/p95 on each: a one-shot `groove search` process, and warm searches through a `groove serve
//     --transport http` process and through the in-process facade; and how many answers are the same on both
//   searches/s from concurrent MCP clients: one SQLite serve (the baseline), then 1, 2 and 4 serve replicas on
//     ONE PostgreSQL database, the clients spread over them
// A measurement the build cannot take (say `groove serve` refuses the postgres backend) is printed as
// "n/a: <groove's error>" and the run goes on. PostgreSQL: GROOVE_TEST_PG_URL, else a throwaway Debian cluster
// (test/support/postgres-server.ts). Results go to bench/results/postgres.json. Times are reported, never asserted.
// Run: npm run bench:postgres [-- --chunks 100000 --queries 100 --cold-queries 5 --replicas 1,2,4 --clients 8
//      --duration-s 10 --work-dir DIR]

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openTestPostgres, type TestDatabase } from '../test/support/postgres-server.js';
import {
  grooveErrorLine,
  runGroove,
  type SearchTimings,
  timeInProcessSearches,
  timeOneShotSearches,
  timeServedSearches,
} from './groove-runs.js';
import { type LoadReport, measureLoad } from './mcp-load.js';
import { type ServeProcess, startServe } from './serve-process.js';
import {
  type Cell,
  countIdentical,
  formatColumns,
  measured,
  notMeasured,
  showCell,
  showTiming,
} from './side-by-side.js';
import { buildQueries, writeSyntheticKb } from './synthetic-kb.js';
import type { Timing } from './vector-scan.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultPath = path.join(repoRoot, 'bench/results/postgres.json');
const { values } = parseArgs({
  options: {
    chunks: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '100' },
    'cold-queries': { type: 'string', default: '5' },
    replicas: { type: 'string', default: '1,2,4' },
    clients: { type: 'string', default: '8' },
    'duration-s': { type: 'string', default: '10' },
    'work-dir': { type: 'string' },
  },
});
/** How long one serve may take to load its index and announce itself. */
const SERVE_START_TIMEOUT_MS = 900_000;

/** The synthetic mix without filtered queries (the served route and the load take a query text only). */
const queryTexts = buildQueries(Number(values.queries))
  .filter((q) => q.kind !== 'filtered')
  .map((q) => q.request.query);

interface IndexResult {
  seconds: number;
  documents: number;
  chunks: number;
  docs_per_s: number;
  chunks_per_s: number;
  store_mb: number;
}

interface FleetResult {
  replicas: number;
  /** From the first start to the last replica answering. */
  startup_s: number;
  /** Each replica's /healthz answer (role, backend and lag on a shared store). */
  health: unknown[];
  /** Warm searches over the first replica's HTTP route, before the load. */
  warm?: SearchTimings;
  load: LoadReport;
}

interface BackendResult {
  label: string;
  index: Cell<IndexResult>;
  one_shot: Cell<SearchTimings>;
  in_process: Cell<SearchTimings & { openS: number }>;
  serve: Cell<SearchTimings>;
}

function loadavg(): string {
  return fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

function phase(text: string): void {
  console.log(`- ${text} (load ${loadavg()})`);
}

async function attempt<T>(run: () => Promise<T>): Promise<Cell<T>> {
  try {
    return measured(await run());
  } catch (error) {
    return notMeasured(grooveErrorLine((error as Error).message));
  }
}

/** Which server the PostgreSQL column ran on. */
function serverSource(): string {
  return process.env.GROOVE_TEST_PG_URL
    ? 'server of GROOVE_TEST_PG_URL'
    : 'throwaway cluster on this machine';
}

function toml(value: string): string {
  return JSON.stringify(value);
}

async function indexWith(configPath: string, storeMb: () => Promise<number>): Promise<IndexResult> {
  const run = await runGroove(['index', '--config', configPath, '--format', 'json', '--quiet']);
  const summary = JSON.parse(run.stdout) as { documents: number; chunks: number };
  const seconds = run.ms / 1000;
  return {
    seconds,
    documents: summary.documents,
    chunks: summary.chunks,
    docs_per_s: summary.documents / seconds,
    chunks_per_s: summary.chunks / seconds,
    store_mb: await storeMb(),
  };
}

async function databaseMb(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const row = await client.query('SELECT pg_database_size(current_database()) AS bytes');
    return Number(row.rows[0].bytes) / 1e6;
  } finally {
    await client.end();
  }
}

async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const row = await client.query('SHOW server_version');
    return String(row.rows[0].server_version).split(' ')[0]!;
  } finally {
    await client.end();
  }
}

function fileMb(file: string): number {
  return (
    ['', '-wal'].reduce(
      (sum, suffix) => sum + (fs.statSync(file + suffix, { throwIfNoEntry: false })?.size ?? 0),
      0,
    ) / 1e6
  );
}

/**
 * `replicas` serve processes on one config, started together; once all answer, optionally warm searches on the
 * first, then the clients' load over all of them. A refused start is the cell's reason; all are stopped after.
 */
async function measureFleet(
  replicas: number,
  kbPath: string,
  configPath: string,
  timeWarm: boolean,
): Promise<Cell<FleetResult>> {
  const started = performance.now();
  const starting = await Promise.allSettled(
    Array.from({ length: replicas }, () =>
      startServe({
        kbPath,
        configPath,
        modelDir: null,
        watch: false,
        startTimeoutMs: SERVE_START_TIMEOUT_MS,
      }),
    ),
  );
  const serves = starting.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  try {
    const refused = starting.find((s) => s.status === 'rejected');
    if (refused) return notMeasured(`serve: ${refusalOf((refused.reason as Error).message)}`);
    const startupS = (performance.now() - started) / 1000;
    const health = await Promise.all(
      serves.map((s) => s.healthz().catch((e: Error) => ({ error: e.message }))),
    );
    const warm = timeWarm ? await timeServedSearches(serves[0]!, queryTexts) : undefined;
    const load = await measureLoad({
      urls: serves.map((s: ServeProcess) => s.url),
      clients: Number(values.clients),
      queries: queryTexts,
      seconds: Number(values['duration-s']),
    });
    return measured({ replicas, startup_s: startupS, health, ...(warm ? { warm } : {}), load });
  } finally {
    await Promise.all(serves.map((s) => s.stop()));
  }
}

/** groove's own error line when the serve printed one, else what went wrong first (say, it never announced). */
function refusalOf(message: string): string {
  return /groove: error: /.test(message) ? grooveErrorLine(message) : (message.split('\n')[0] ?? message);
}

function warmOf(fleet: Cell<FleetResult>): Cell<SearchTimings> {
  if (!('ok' in fleet)) return fleet;
  return fleet.ok.warm ? measured(fleet.ok.warm) : notMeasured('not timed');
}

/** What /healthz says each replica is (writer, reader…), when it says. */
function rolesOf(health: readonly unknown[]): string {
  const roles = health.map((h) => {
    const answer = h as { storage?: { role?: unknown }; error?: unknown } | null;
    if (answer && typeof answer.storage?.role === 'string') return answer.storage.role;
    return answer && typeof answer.error === 'string' ? 'healthz failed' : null;
  });
  return roles.some((role) => role !== null) ? `; roles ${roles.map((r) => r ?? '?').join('/')}` : '';
}

function showLoad(fleet: FleetResult): string {
  const l = fleet.load;
  return (
    `${l.searches_per_s.toFixed(1)} searches/s, ${showTiming(l.latency_ms)}, errors ${l.errors}; ` +
    `startup ${fleet.startup_s.toFixed(1)} s${rolesOf(fleet.health)}`
  );
}

/** PostgreSQL's number over SQLite's, both from this run; n/a when either is missing. */
function ratio<T>(sqlite: Cell<T>, postgres: Cell<T>, pick: (value: T) => number, what: string): string {
  if (!('ok' in sqlite) || !('ok' in postgres)) return 'n/a';
  return `${(pick(postgres.ok) / pick(sqlite.ok)).toFixed(2)}× ${what}`;
}

function sameAnswers(a: Cell<SearchTimings>, b: Cell<SearchTimings>): string {
  if (!('ok' in a) || !('ok' in b)) return 'n/a';
  return `${countIdentical(a.ok.hits, b.ok.hits)}/${Math.min(a.ok.hits.length, b.ok.hits.length)}`;
}

function printTable(
  sqlite: BackendResult,
  postgres: BackendResult,
  fleets: Cell<FleetResult>[],
  baseline: Cell<FleetResult>,
): void {
  const showIndex = (r: IndexResult) =>
    `${r.seconds.toFixed(1)} s, ${r.docs_per_s.toFixed(0)} docs/s, ${r.chunks_per_s.toFixed(0)} chunks/s, ${r.store_mb.toFixed(0)} MB`;
  const timing = (cell: Cell<{ ms: Timing }>) => showCell(cell, (t) => showTiming(t.ms));
  const inProcess = (cell: BackendResult['in_process']) =>
    showCell(cell, (t) => `${showTiming(t.ms)} (open + first answer ${t.openS.toFixed(2)} s)`);
  const p50 = (t: { ms: Timing }) => t.ms.median;
  const rows: string[][] = [
    [
      'first index (lexical-only)',
      showCell(sqlite.index, showIndex),
      showCell(postgres.index, showIndex),
      ratio(sqlite.index, postgres.index, (r) => r.seconds, 'time'),
    ],
    [
      'one-shot groove search',
      timing(sqlite.one_shot),
      timing(postgres.one_shot),
      ratio(sqlite.one_shot, postgres.one_shot, p50, 'p50'),
    ],
    [
      'warm search, serve over HTTP',
      timing(sqlite.serve),
      timing(postgres.serve),
      ratio(sqlite.serve, postgres.serve, p50, 'p50'),
    ],
    [
      'warm search, in-process facade',
      inProcess(sqlite.in_process),
      inProcess(postgres.in_process),
      ratio(sqlite.in_process, postgres.in_process, p50, 'p50'),
    ],
    [
      'same top 10 as SQLite',
      '—',
      `one-shot ${sameAnswers(sqlite.one_shot, postgres.one_shot)}, serve ${sameAnswers(sqlite.serve, postgres.serve)}, in-process ${sameAnswers(sqlite.in_process, postgres.in_process)}`,
    ],
  ];
  const replicaList = values.replicas.split(',').map(Number);
  replicaList.forEach((n, i) => {
    rows.push([
      `${values.clients} MCP clients, ${n} serve${n === 1 ? '' : 's'}`,
      n === 1 ? `${showCell(baseline, showLoad)} (baseline)` : '—',
      showCell(fleets[i]!, showLoad),
      ratio(baseline, fleets[i]!, (f) => f.load.searches_per_s, 'searches/s'),
    ]);
  });
  console.log(`\n${formatColumns(['', sqlite.label, postgres.label, 'PostgreSQL ÷ SQLite'], rows)}`);
}

async function benchBackends(db: TestDatabase, workDir: string): Promise<void> {
  const chunks = Number(values.chunks);
  const kbPath = path.join(workDir, 'notes');
  fs.rmSync(kbPath, { recursive: true, force: true });
  const sqliteDb = path.join(workDir, 'sqlite.groove.db');
  fs.rmSync(sqliteDb, { force: true });
  const sqliteToml = path.join(workDir, 'sqlite.toml');
  const postgresToml = path.join(workDir, 'postgres.toml');
  fs.writeFileSync(sqliteToml, `kb_path = ${toml(kbPath)}\ndb_path = ${toml(sqliteDb)}\nmodel = "none"\n`);
  fs.writeFileSync(
    postgresToml,
    `kb_path = ${toml(kbPath)}\nmodel = "none"\n\n[storage]\nbackend = "postgres"\nurl = ${toml(db.url)}\nkb = "bench"\n`,
  );
  const version = await serverVersion(db.url);
  const began = performance.now();
  const loadBefore = loadavg();
  console.log(
    `postgres bench: ${chunks} chunks, ${queryTexts.length} warm queries, ${values['cold-queries']} one-shot, ` +
      `${values.clients} clients × ${values['duration-s']} s per fleet; ${os.availableParallelism()} cores, ` +
      `load ${loadBefore}; PostgreSQL ${version} (${serverSource()}; lexical-only on both)`,
  );
  phase('writing the synthetic KB');
  const started = performance.now();
  const written = writeSyntheticKb({ dir: kbPath, chunks });
  const generateS = (performance.now() - started) / 1000;
  console.log(
    `  ${written.files} files, ${written.sections} sections, ${(written.bytes / 1e6).toFixed(0)} MB in ${generateS.toFixed(1)} s`,
  );

  const sqlite: BackendResult = {
    label: 'SQLite (one file)',
    index: notMeasured('not run'),
    one_shot: notMeasured('not run'),
    in_process: notMeasured('not run'),
    serve: notMeasured('not run'),
  };
  const postgres: BackendResult = {
    label: `PostgreSQL ${version} (${serverSource()})`,
    index: notMeasured('not run'),
    one_shot: notMeasured('not run'),
    in_process: notMeasured('not run'),
    serve: notMeasured('not run'),
  };
  phase('first index on SQLite');
  sqlite.index = await attempt(() => indexWith(sqliteToml, async () => fileMb(sqliteDb)));
  phase('first index on PostgreSQL');
  postgres.index = await attempt(() => indexWith(postgresToml, () => databaseMb(db.url)));

  const cold = queryTexts.slice(0, Number(values['cold-queries']));
  phase('one-shot groove search on SQLite');
  sqlite.one_shot = await attempt(() => timeOneShotSearches(sqliteToml, cold));
  phase('one-shot groove search on PostgreSQL');
  postgres.one_shot = await attempt(() => timeOneShotSearches(postgresToml, cold));
  phase('warm searches in-process on SQLite');
  sqlite.in_process = await attempt(() => timeInProcessSearches(sqliteToml, queryTexts));
  phase('warm searches in-process on PostgreSQL');
  postgres.in_process = await attempt(() => timeInProcessSearches(postgresToml, queryTexts));

  phase('one serve on SQLite: warm searches, then the load (baseline)');
  const baseline = await measureFleet(1, kbPath, sqliteToml, true);
  sqlite.serve = warmOf(baseline);
  const fleets: Cell<FleetResult>[] = [];
  for (const [i, n] of values.replicas.split(',').map(Number).entries()) {
    phase(`${n} serve replica${n === 1 ? '' : 's'} on one PostgreSQL database`);
    const fleet = await measureFleet(n, kbPath, postgresToml, i === 0);
    if (i === 0) postgres.serve = warmOf(fleet);
    if ('na' in fleet) console.log(`  n/a: ${fleet.na}`);
    fleets.push(fleet);
  }
  printTable(sqlite, postgres, fleets, baseline);

  const report = {
    generated_at: new Date().toISOString(),
    node: process.version,
    cpus: os.availableParallelism(),
    loadavg_before: loadBefore,
    loadavg_after: loadavg(),
    total_minutes: (performance.now() - began) / 60_000,
    postgres_server: `PostgreSQL ${version}`,
    chunks_requested: chunks,
    kb: { files: written.files, sections: written.sections, mb: written.bytes / 1e6, generate_s: generateS },
    queries: { warm: queryTexts.length, one_shot: cold.length },
    clients: Number(values.clients),
    duration_s: Number(values['duration-s']),
    sqlite: { ...sqlite, serve_fleet: baseline },
    postgres: { ...postgres, replicas: fleets },
  };
  fs.mkdirSync(path.dirname(resultPath), { recursive: true });
  fs.writeFileSync(resultPath, `${JSON.stringify(report, withoutHits, 2)}\n`);
  console.log(
    `\nwrote ${path.relative(repoRoot, resultPath)}; ${report.total_minutes.toFixed(1)} min in all ` +
      `(load ${loadBefore} before, ${report.loadavg_after} after; other jobs share the machine)`,
  );
}

/** The JSON keeps the numbers, not every hit list. */
function withoutHits(key: string, value: unknown): unknown {
  return key === 'hits' ? undefined : value;
}

async function main(): Promise<void> {
  const server = await openTestPostgres();
  if (server.skipReason !== null) {
    console.log(`skipped: ${server.skipReason}`);
    return;
  }
  const workDir = values['work-dir']
    ? path.resolve(values['work-dir'])
    : fs.mkdtempSync(path.join(os.tmpdir(), 'groove-bench-postgres-'));
  fs.mkdirSync(workDir, { recursive: true });
  const db = await server.createDatabase();
  try {
    await benchBackends(db, workDir);
  } finally {
    await db.drop().catch(() => {});
    await server.stop();
    if (!values['work-dir']) fs.rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
