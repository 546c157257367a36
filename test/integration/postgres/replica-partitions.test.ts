// Replicas on separate hosts, simulated with Linux network namespaces this test makes: PostgreSQL 15 in one
// namespace, three `groove serve` replicas in three others, all on a private bridge (nothing added to the
// machine's own namespace; addresses only inside these). Each replica reaches the server through a small proxy
// in its own namespace (test/support/lossy-proxy.mjs), which can slow its link down.
//   (a) The writer's link is cut (its veth taken down: no FIN, no RST) while it writes a burst: another replica
//       takes the role once the server's idle timeout ends the old writer's session; the old writer commits
//       nothing after the cut (a trigger in the test database records the client address of every committed
//       write); when its link returns it rejoins as a reader and catches up.
//   (b) A reader's link gets latency and loss, then a blackout: it keeps answering from its working copy (faster
//       than one round trip), what /healthz says it applied is what its searches find, in the blackout it says it
//       no longer hears the server, and once the link heals it catches up.
//   (c) After each, the store holds every file once, chunk for chunk as a fresh SQLite index of the folder.
// Skipped, saying why, when namespaces cannot be made (not root, no `ip`), PostgreSQL is not installed, or the
// CLI is not built. afterAll stops every process, the cluster, and deletes the namespaces whatever happened.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type LabHost,
  type LabProcess,
  NetnsLab,
  netnsSkipReason,
  waitForLine,
} from '../../support/netns-lab.js';
import { findPostgresBinDir } from '../../support/postgres-server.js';
import { binPath, runBin } from '../../support/run-bin.js';
import { createTempKb, noteText, type TempKb } from '../../support/temp-kb.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const hasDist = fs.existsSync(path.join(repoRoot, 'dist/src/cli/main.js'));
const pgBinDir = findPostgresBinDir();

function skipReasonOf(): string | null {
  if (!hasDist) return 'no dist/ build — run `npm run build`';
  if (!pgBinDir) return 'no PostgreSQL binaries (initdb) found';
  const netns = netnsSkipReason();
  if (netns) return netns;
  const user = execFileSync('id', ['-u', 'postgres'], { stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trim();
  return user ? null : 'no `postgres` user to run the cluster as';
}
let skipReason: string | null;
try {
  skipReason = skipReasonOf();
} catch (error) {
  skipReason = `cannot check for network namespaces: ${(error as Error).message}`;
}
if (skipReason) process.stderr.write(`replica partition tests skipped: ${skipReason}\n`);
const title = skipReason
  ? `groove serve replicas across a network partition (skipped: ${skipReason})`
  : 'groove serve replicas across a network partition';

/** The server ends a session idle (in a transaction or not) this long; the replicas ask for the same. */
const IDLE_TIMEOUT_MS = 3000;
const PG_PORT = 5432;
const PROXY_PORT = 15432;
const DEADLINE_MS = 60_000;
const BURST = 150;
const proxyScript = path.join(repoRoot, 'test/support/lossy-proxy.mjs');
const SERVING = /serving .* at http:\/\/127\.0\.0\.1:(\d+)\/mcp/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
  deadlineMs = DEADLINE_MS,
): Promise<T> {
  const started = Date.now();
  let last: unknown = null;
  while (Date.now() - started < deadlineMs) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
}

interface Health {
  storage: {
    role?: 'writer' | 'reader';
    applied_version?: number;
    latest_version?: number;
    lag_versions?: number;
    lag_ms?: number;
    listening?: boolean;
  };
}

interface Replica {
  name: string;
  host: LabHost;
  serve: LabProcess;
  proxy: LabProcess;
  socketPath: string;
  health(): Promise<Health>;
  searchPaths(query: string, limit?: number): Promise<string[]>;
  setLink(settings: {
    delayMs?: number;
    jitterMs?: number;
    lossRate?: number;
    stallMs?: number;
    paused?: boolean;
  }): void;
}

function getJson<T>(socketPath: string, target: string, timeoutMs = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = http.get({ socketPath, path: target, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`GET ${target}: ${res.statusCode} ${body}`));
        else resolve(JSON.parse(body) as T);
      });
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${target}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}

describe.skipIf(skipReason !== null)(title, { timeout: 240_000 }, () => {
  let lab: NetnsLab;
  /** What each health poll of scenario (b) saw, for the failure message. */
  const seen: string[] = [];
  let temp: TempKb;
  let pgHost: LabHost;
  let testDb: pg.ClientConfig;
  const replicas: Replica[] = [];

  async function query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    const client = new pg.Client(testDb);
    await client.connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  /** Start PostgreSQL inside `host`, listening on its bridge address, with short idle timeouts. */
  function startCluster(host: LabHost): { socketDir: string } {
    const root = path.join(lab.folder, 'pg');
    const data = path.join(root, 'data');
    const socketDir = path.join(root, 'sock');
    fs.mkdirSync(socketDir, { recursive: true });
    execFileSync('chown', ['-R', 'postgres', root]);
    const asServer = (file: string, args: string[]) =>
      lab.execIn(host, 'runuser', ['-u', 'postgres', '--', path.join(pgBinDir!, file), ...args]);
    asServer('initdb', ['-D', data, '--encoding=UTF8', '--locale=C.UTF-8', '--auth=trust', '-U', 'postgres']);
    fs.appendFileSync(path.join(data, 'pg_hba.conf'), 'host all all 10.231.0.0/24 trust\n');
    const options = [
      `-p ${PG_PORT}`,
      `-c listen_addresses=${host.address}`,
      `-k ${socketDir}`,
      `-c idle_session_timeout=${IDLE_TIMEOUT_MS}`,
      `-c idle_in_transaction_session_timeout=${IDLE_TIMEOUT_MS}`,
    ].join(' ');
    lab.onCleanup(() => {
      asServer('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    });
    asServer('pg_ctl', ['-D', data, '-l', path.join(root, 'postgres.log'), '-o', options, '-w', 'start']);
    return { socketDir };
  }

  async function startReplica(name: string, octet: number, configPath: string): Promise<Replica> {
    const host = lab.addHost(name, octet);
    const home = path.join(lab.folder, name);
    fs.mkdirSync(path.join(home, 'tmp'), { recursive: true });
    const proxy = lab.spawnIn(
      host,
      process.execPath,
      [proxyScript, String(PROXY_PORT), pgHost.address, String(PG_PORT)],
      {
        stdin: true,
      },
    );
    await waitForLine(proxy, 'ready', 10_000);
    // Separate hosts share no cache, temp folder or home.
    const env = {
      ...process.env,
      HOME: home,
      XDG_CACHE_HOME: path.join(home, 'cache'),
      GROOVE_CACHE_DIR: path.join(home, 'cache', 'groove'),
      XDG_CONFIG_HOME: path.join(home, 'config'),
      XDG_DATA_HOME: path.join(home, 'data'),
      TMPDIR: path.join(home, 'tmp'),
      GROOVE_OFFLINE: '1',
      NO_COLOR: '1',
      GROOVE_HTTP_TOKEN: '',
      GROOVE_NO_SERVER: '1',
      GROOVE_PG_WRITER_RETRY_MS: '200',
      GROOVE_PG_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS),
    };
    const args = [binPath, 'serve', '--transport', 'http', '--port', '0', '--kb-path', temp.kbPath];
    args.push('--config', configPath, '--debounce-ms', '50');
    const serve = lab.spawnIn(host, process.execPath, args, { env, cwd: home });
    const port = await until(
      `${name} to start serving`,
      async () => {
        const match = SERVING.exec(serve.stderr());
        if (serve.child.exitCode !== null) throw new Error(`serve exited: ${serve.stderr()}`);
        return match ? Number(match[1]) : undefined;
      },
      90_000,
    );
    const socketPath = await lab.relayTo(host, port, name);
    return {
      name,
      host,
      serve,
      proxy,
      socketPath,
      health: () => getJson<Health>(socketPath, '/healthz'),
      searchPaths: async (q, limit = 10) => {
        const answer = await getJson<{ results: { path: string }[] }>(
          socketPath,
          `/api/search?q=${encodeURIComponent(q)}&limit=${limit}`,
        );
        return answer.results.map((r) => r.path);
      },
      setLink: (settings) => proxy.child.stdin!.write(`${JSON.stringify(settings)}\n`),
    };
  }

  async function databaseVersion(): Promise<number> {
    const rows = await query<{ version: string }>('SELECT version FROM kb_versions');
    return Number(rows[0]?.version ?? 0);
  }

  /** One writer among `live`, every one caught up with the database's version and listening. */
  async function settled(live: readonly Replica[]) {
    const version = await databaseVersion();
    const health = await Promise.all(live.map((r) => r.health()));
    const caughtUp = health.every(
      (h) => h.storage.applied_version === version && h.storage.lag_versions === 0 && h.storage.listening,
    );
    const writers = live.filter((_, i) => health[i]!.storage.role === 'writer');
    return caughtUp && writers.length === 1 ? { writer: writers[0]!, version } : undefined;
  }

  async function storedChunkCounts(): Promise<{ path: string; chunks: number }[]> {
    return query<{ path: string; chunks: number }>(
      `SELECT d.path, (SELECT count(*)::int FROM groove_chunks c WHERE c.kb_id = d.kb_id AND c.document_id = d.id)
         AS chunks
       FROM groove_documents d JOIN groove_kbs k ON k.id = d.kb_id WHERE k.name = 'team' ORDER BY d.path`,
    );
  }

  function freshIndexCounts(): { path: string; chunks: number }[] {
    const workDir = fs.mkdtempSync(path.join(lab.folder, 'fresh-'));
    const dbPath = path.join(workDir, 'fresh.groove.db');
    const run = runBin(['index', '--kb-path', temp.kbPath, '--db-path', dbPath, '--model', 'none'], workDir);
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

  /** (c): the store equals a fresh index of the folder — no file lost or doubled, chunk for chunk. */
  async function expectStoreMatchesFolder(): Promise<void> {
    const expected = freshIndexCounts();
    await until('the store to match a fresh index of the folder', async () => {
      const stored = await storedChunkCounts();
      return JSON.stringify(stored) === JSON.stringify(expected) ? true : undefined;
    });
  }

  beforeAll(async () => {
    lab = new NetnsLab();
    temp = createTempKb(
      Object.fromEntries(['alpha', 'beta', 'gamma', 'delta'].map((n) => [`notes/${n}.md`, noteText(n)])),
    );
    pgHost = lab.addHost('pg', 10);
    const { socketDir } = startCluster(pgHost);
    const admin = new pg.Client({ host: socketDir, port: PG_PORT, user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query(
      `CREATE DATABASE groove_partition TEMPLATE template0 ENCODING 'UTF8' LC_CTYPE 'C.UTF-8'`,
    );
    await admin.end();
    testDb = { host: socketDir, port: PG_PORT, user: 'postgres', database: 'groove_partition' };
    const configPath = path.join(lab.folder, 'groove.toml');
    fs.writeFileSync(
      configPath,
      `model = "none"\n[storage]\nbackend = "postgres"\nurl = "postgresql://postgres@127.0.0.1:${PROXY_PORT}/groove_partition"\nkb = "team"\n`,
    );
    for (const [i, name] of ['r1', 'r2', 'r3'].entries())
      replicas.push(await startReplica(name, 21 + i, configPath));
    await until('one writer and two caught-up readers', () => settled(replicas));
    // Every committed write, with the address it came from (each replica has its own).
    await query(`CREATE TABLE partition_audit (
      tbl text NOT NULL, client inet, at timestamptz NOT NULL DEFAULT clock_timestamp())`);
    await query(`CREATE FUNCTION partition_audit_row() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO partition_audit(tbl, client) VALUES (TG_TABLE_NAME, inet_client_addr()); RETURN NULL; END $$`);
    for (const table of ['kb_versions', 'groove_documents', 'groove_chunks']) {
      await query(`CREATE TRIGGER partition_audit_${table} AFTER INSERT OR UPDATE OR DELETE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION partition_audit_row()`);
    }
  }, 200_000);

  afterAll(async () => {
    await lab?.destroy();
    temp?.cleanup();
  });

  it('(a) a writer cut off mid-write is replaced after the idle timeout, commits nothing after, and rejoins as a reader', async () => {
    const first = await until('a settled fleet', () => settled(replicas));
    const old = first.writer;
    const others = replicas.filter((r) => r !== old);
    for (let i = 0; i < BURST; i++) {
      fs.writeFileSync(path.join(temp.kbPath, `burst-cut-${i}.md`), noteText(`cut${i}`));
    }
    await until('the writer to start writing the burst back', async () => {
      const stored = await storedChunkCounts();
      return stored.some((row) => row.path.startsWith('burst-cut-')) ? true : undefined;
    });
    lab.setLink(old.host, false);
    const cutAt = Date.now();
    const storedAtCut = (await storedChunkCounts()).filter((row) => row.path.startsWith('burst-cut-')).length;
    expect(storedAtCut).toBeLessThan(BURST);

    // Another replica takes the role, only once the server has ended the old writer's session.
    const second = await until('another replica to take the role', async () => {
      const health = await Promise.all(others.map((r) => r.health()));
      const writer = others.find((_, i) => health[i]!.storage.role === 'writer');
      return writer ? { writer, at: Date.now() } : undefined;
    });
    expect(second.at - cutAt).toBeGreaterThanOrEqual(IDLE_TIMEOUT_MS - 500);
    // The cut-off replica gave the role up on its own (its liveness query got no answer).
    await until('the cut-off replica to stop calling itself writer', async () =>
      (await old.health()).storage.role === 'reader' ? true : undefined,
    );
    // It keeps answering from its working copy meanwhile.
    expect(await old.searchPaths('gammaalpha', 1)).toEqual(['notes/gamma.md']);
    await expectStoreMatchesFolder();

    // The link returns: the old writer rejoins as a reader and catches up; one writer in all.
    lab.setLink(old.host, true);
    const rejoined = await until('the old writer to rejoin as a caught-up reader', () => settled(replicas));
    expect(rejoined.writer).toBe(second.writer);
    expect((await old.health()).storage.role).toBe('reader');
    expect(await old.searchPaths('cut149alpha', 1)).toEqual(['burst-cut-149.md']);

    // No write from the old writer's address committed after the cut (clocks: one machine).
    const late = await query<{ tbl: string; at: Date }>(
      'SELECT tbl, at FROM partition_audit WHERE client = $1 AND at > $2',
      [old.host.address, new Date(cutAt)],
    );
    expect(late).toEqual([]);
    const fromOld = await query<{ n: number }>(
      'SELECT count(*)::int AS n FROM partition_audit WHERE client = $1',
      [old.host.address],
    );
    expect(fromOld[0]!.n).toBeGreaterThan(0); // it did write before the cut: the audit sees its address
    await expectStoreMatchesFolder();
  });

  it('(b) a reader on a slow, lossy, then dark link answers from its working copy and /healthz tells its real lag', async () => {
    const { writer } = await until('a settled fleet', () => settled(replicas));
    const reader = replicas.find((r) => r !== writer)!;
    reader.setLink({ delayMs: 500, jitterMs: 100, lossRate: 0.2, stallMs: 600 });
    try {
      for (let i = 0; i < 5; i++)
        fs.writeFileSync(path.join(temp.kbPath, `slow-${i}.md`), noteText(`slow${i}`));
      const target = await until('the writer to commit the new files', async () => {
        const stored = await storedChunkCounts();
        return stored.filter((row) => row.path.startsWith('slow-')).length === 5
          ? databaseVersion()
          : undefined;
      });
      let sawBehind = false;
      await until(
        'the slow reader to apply the new files',
        async () => {
          const started = Date.now();
          const health = await reader.health();
          const found = await reader.searchPaths('slow4alpha', 1);
          // Answered from the working copy: faster than one round trip over this link.
          expect(Date.now() - started).toBeLessThan(1000);
          const applied = health.storage.applied_version ?? 0;
          seen.push(`${Date.now() - started} ms ${JSON.stringify(health.storage)} ${JSON.stringify(found)}`);
          if (applied < target) {
            sawBehind = true;
            // Behind: it must not claim to be caught up with what it has heard of.
            expect(health.storage.lag_versions).toBe((health.storage.latest_version ?? 0) - applied);
          } else {
            // What it says it applied, its searches find.
            expect(found).toEqual(['slow-4.md']);
            expect(health.storage.lag_versions).toBe(0);
          }
          if ((health.storage.lag_versions ?? 0) > 0) expect(health.storage.lag_ms).toBeGreaterThan(0);
          return applied >= target ? true : undefined;
        },
        90_000,
      ).catch((error: unknown) => {
        const log = reader.serve.stderr().slice(-1500);
        throw new Error(`${(error as Error).message}\n${seen.slice(-6).join('\n')}\n${log}`);
      });
      expect(sawBehind).toBe(true);
      expect(await reader.searchPaths('alphaalpha', 1)).toEqual(['notes/alpha.md']);

      // A blackout (nothing passes, not even a close) longer than the liveness and idle timeouts: the reader
      // keeps answering, never claims what it has not applied, and says it no longer hears the server.
      reader.setLink({ delayMs: 0, jitterMs: 0, lossRate: 0, stallMs: 0, paused: true });
      fs.writeFileSync(path.join(temp.kbPath, 'dark-0.md'), noteText('dark0'));
      const darkVersion = await until('the writer to commit the file written in the dark', async () => {
        const stored = await storedChunkCounts();
        return stored.some((row) => row.path === 'dark-0.md') ? databaseVersion() : undefined;
      });
      await until('the blacked-out reader to say it does not hear the server', async () => {
        const started = Date.now();
        const health = await reader.health();
        expect(await reader.searchPaths('dark0alpha', 1)).toEqual([]);
        expect(await reader.searchPaths('slow4alpha', 1)).toEqual(['slow-4.md']);
        expect(Date.now() - started).toBeLessThan(1000);
        expect(health.storage.applied_version).toBeLessThan(darkVersion);
        seen.push(`dark: ${JSON.stringify(health.storage)}`);
        return health.storage.listening === false ? true : undefined;
      });
      reader.setLink({ paused: false });
      await until('the reader to apply the file written in the dark once the link heals', async () => {
        const health = await reader.health();
        const found = await reader.searchPaths('dark0alpha', 1);
        if ((health.storage.applied_version ?? 0) >= darkVersion) {
          expect(found).toEqual(['dark-0.md']);
          return health.storage.listening ? true : undefined;
        }
        return undefined;
      });
    } finally {
      reader.setLink({ delayMs: 0, jitterMs: 0, lossRate: 0, stallMs: 0, paused: false });
    }
    await until('every replica caught up', () => settled(replicas));
    await expectStoreMatchesFolder();
  });
});
