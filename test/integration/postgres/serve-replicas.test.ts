// Several `groove serve` processes on one knowledge base in a real PostgreSQL 15 server: exactly one holds the
// writer role and indexes, the others serve reads and follow its commits into their own working copies, and after
// a kill -9 of the writer (also in the middle of a write-back) another replica takes over — with every file in
// the store exactly once, chunk for chunk as a fresh SQLite index of the same folder. Skipped, saying why, only
// when no server can be had or the CLI is not built.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestPostgres, type TestDatabase } from '../../support/postgres-server.js';
import { runBin } from '../../support/run-bin.js';
import { type ServeReplica, startServeReplica } from '../../support/serve-replica.js';
import { createTempKb, noteText } from '../../support/temp-kb.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const hasDist = fs.existsSync(path.join(repoRoot, 'dist/src/cli/main.js'));
const server = await openTestPostgres();
const skipReason = server.skipReason ?? (hasDist ? null : 'no dist/ build — run `npm run build`');
if (skipReason) process.stderr.write(`serve replica tests skipped: ${skipReason}\n`);
const title = skipReason
  ? `groove serve replicas on PostgreSQL (skipped: ${skipReason})`
  : 'groove serve replicas on PostgreSQL';
/** Far above the 200 ms retry interval the replicas use: anything slower is a failure. */
const DEADLINE_MS = 20_000;
/** Files written at once before the writer is killed: enough that its write-back takes a while. */
const BURST = 300;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Poll `check` until it returns a value (not undefined) or the deadline passes. */
async function until<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const started = Date.now();
  let last: unknown = null;
  while (Date.now() - started < DEADLINE_MS) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await sleep(20);
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
}

async function query<R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

/** Chunks per document path in the store (a path stored twice shows up as two rows). */
async function storedChunkCounts(url: string): Promise<{ path: string; chunks: number }[]> {
  return query<{ path: string; chunks: number }>(
    url,
    `SELECT d.path, (SELECT count(*)::int FROM groove_chunks c WHERE c.kb_id = d.kb_id AND c.document_id = d.id)
       AS chunks
     FROM groove_documents d JOIN groove_kbs k ON k.id = d.kb_id WHERE k.name = 'team' ORDER BY d.path`,
  );
}

/** The same, from a fresh SQLite index of the folder (made in `workDir`, which holds no groove.toml). */
function sqliteChunkCounts(kbPath: string, workDir: string): { path: string; chunks: number }[] {
  const dbPath = path.join(workDir, 'fresh.groove.db');
  const run = runBin(['index', '--kb-path', kbPath, '--db-path', dbPath, '--model', 'none'], workDir);
  expect(run.code, run.stderr).toBe(0);
  const db = new Database(dbPath, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT d.path, (SELECT count(*) FROM chunks c WHERE c.document_id = d.id) AS chunks
         FROM documents d ORDER BY d.path`,
      )
      .all() as { path: string; chunks: number }[];
  } finally {
    db.close();
  }
}

describe.skipIf(skipReason !== null)(title, { timeout: 240_000 }, () => {
  let database: TestDatabase;
  let replicas: ServeReplica[] = [];
  const cleanups: (() => void)[] = [];

  beforeAll(async () => {
    database = await server.createDatabase();
  });
  afterEach(async () => {
    await Promise.all(replicas.map((replica) => replica.kill('SIGTERM')));
    replicas = [];
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  afterAll(async () => {
    await database?.drop();
    await server.stop();
  });

  /** Roles once every live replica is caught up with the newest commit it heard of. */
  async function settledRoles(live: readonly ServeReplica[]) {
    const health = await Promise.all(live.map((replica) => replica.health()));
    const caughtUp = health.every(
      (h) => (h.storage.applied_version ?? 0) > 0 && h.storage.lag_versions === 0 && h.storage.listening,
    );
    const writers = live.filter((_, i) => health[i]!.storage.role === 'writer');
    return caughtUp && writers.length === 1 ? { writer: writers[0]!, health } : undefined;
  }

  it('one writer indexes, readers follow its commits, a killed writer is replaced and nothing is lost or doubled', async () => {
    const names = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
    const temp = createTempKb(Object.fromEntries(names.map((n) => [`notes/${n}.md`, noteText(n)])));
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-replicas-'));
    const sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-replicas-sqlite-'));
    cleanups.push(() => temp.cleanup());
    for (const dir of [workDir, sqliteDir])
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const configPath = path.join(workDir, 'groove.toml');
    fs.writeFileSync(
      configPath,
      `model = "none"\n[storage]\nbackend = "postgres"\nurl = "${database.url}"\nkb = "team"\n`,
    );
    const start = () =>
      startServeReplica({
        kbPath: temp.kbPath,
        configPath,
        cwd: workDir,
        env: { GROOVE_PG_WRITER_RETRY_MS: '200', GROOVE_NO_SERVER: '1' },
      });
    for (let i = 0; i < 3; i++) replicas.push(await start());

    // Exactly one writer; every replica's working copy holds the first index.
    const first = await until('one writer and two caught-up readers', () => settledRoles(replicas));
    expect(first.health.map((h) => h.storage.backend)).toEqual(['postgres', 'postgres', 'postgres']);
    const readers = replicas.filter((replica) => replica !== first.writer);
    for (const replica of replicas) {
      expect(await replica.searchPaths('gammaalpha', 1)).toEqual(['notes/gamma.md']);
    }

    // A reader answers a real MCP client from its working copy.
    const client = new Client({ name: 'replica-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${readers[0]!.port}/mcp`)),
    );
    const answer = await client.callTool({ name: 'search', arguments: { query: 'epsilonbeta', limit: 1 } });
    expect(JSON.stringify(answer.content)).toContain('notes/epsilon.md');
    await client.close();

    // An edit on disk: the writer indexes it, the readers apply the commits (added, rewritten, removed).
    fs.writeFileSync(path.join(temp.kbPath, 'notes/zeta.md'), noteText('zeta'));
    fs.writeFileSync(
      path.join(temp.kbPath, 'notes/alpha.md'),
      noteText('alpha').replace('alphaalpha', 'omegaword'),
    );
    fs.rmSync(path.join(temp.kbPath, 'notes/beta.md'));
    for (const reader of readers) {
      await until('the readers to see the edit', async () => {
        const zeta = await reader.searchPaths('zetaalpha', 1);
        const omega = await reader.searchPaths('omegaword', 1);
        const beta = await reader.searchPaths('betaalpha', 5);
        const done = zeta[0] === 'notes/zeta.md' && omega[0] === 'notes/alpha.md';
        return done && !beta.includes('notes/beta.md') ? true : undefined;
      });
    }

    // kill -9 the writer: one of the two others takes the role.
    await first.writer.kill('SIGKILL');
    let live = readers;
    const second = await until('a new writer', () => settledRoles(live));
    const survivor = live.find((replica) => replica !== second.writer)!;

    // A burst of new files; the new writer is killed while it indexes them (its write-back cut off part-way).
    for (let i = 0; i < BURST; i++) {
      fs.writeFileSync(path.join(temp.kbPath, `burst-note${i}.md`), noteText(`burst${i}`));
    }
    await until('the new writer to start writing the burst back', async () => {
      const stored = await storedChunkCounts(database.url);
      return stored.some((row) => row.path.startsWith('burst-')) ? true : undefined;
    });
    await second.writer.kill('SIGKILL');
    const burstAtKill = (await storedChunkCounts(database.url)).filter((row) =>
      row.path.startsWith('burst-'),
    );
    // The kill landed in the middle of the write-back: some of the burst stored, not all.
    expect(burstAtKill.length).toBeGreaterThan(0);
    expect(burstAtKill.length).toBeLessThan(BURST);
    live = [survivor];
    await until('the last replica to take the role', () => settledRoles(live));

    // The last replica finishes the job: the store holds every file once, chunk for chunk as SQLite would.
    const expected = sqliteChunkCounts(temp.kbPath, sqliteDir);
    expect(expected).toHaveLength(5 + BURST);
    await until('the store to match the folder', async () => {
      const stored = await storedChunkCounts(database.url);
      return JSON.stringify(stored) === JSON.stringify(expected) ? true : undefined;
    });
    expect(await storedChunkCounts(database.url)).toEqual(expected);
    expect(await survivor.searchPaths(`burst${BURST - 1}alpha`, 1)).toEqual([`burst-note${BURST - 1}.md`]);
    expect(await survivor.searchPaths('omegaword', 1)).toEqual(['notes/alpha.md']);
  });
});
