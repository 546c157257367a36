// A real PostgreSQL server for the tests: the one `.ci/run` started (GROOVE_TEST_PG_URL), else a throwaway
// cluster started here from Debian's binaries (UTF-8 ctype, trust auth, 127.0.0.1, a free port, all in a temp
// folder), else a reason to skip. Each test file gets a fresh UTF-8 database and drops it after. Test-only.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface TestDatabase {
  /** Connection string of this test file's own database. */
  url: string;
  name: string;
  /** Drop the database (its sessions are ended first). */
  drop(): Promise<void>;
}

export interface TestPostgres {
  /** Why the Postgres tests must skip; null when a server is up. */
  skipReason: string | null;
  /** A fresh database created with a UTF-8 ctype (template0, C.UTF-8), owned by the caller to drop. */
  createDatabase(): Promise<TestDatabase>;
  /** Stop the cluster if this process started it; a server from GROOVE_TEST_PG_URL is left running. */
  stop(): Promise<void>;
}

/** `GROOVE_PG_BINDIR`, `pg_config --bindir`, then `/usr/lib/postgresql/<newest>/bin`: the first with initdb. */
export function findPostgresBinDir(): string | null {
  const candidates: string[] = [];
  if (process.env.GROOVE_PG_BINDIR) candidates.push(process.env.GROOVE_PG_BINDIR);
  const pgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (pgConfig.status === 0) candidates.push(pgConfig.stdout.trim());
  const debianRoot = '/usr/lib/postgresql';
  if (fs.existsSync(debianRoot)) {
    const versions = fs.readdirSync(debianRoot).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => path.join(debianRoot, version, 'bin')));
  }
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'initdb'))) ?? null;
}

/** A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Cluster {
  url: string;
  stopSync(): void;
}

/** initdb refuses root: as root the cluster's files belong to `postgres` and its binaries run as that user. */
function runAsServerUser(file: string, args: readonly string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [command, commandArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  execFileSync(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Start a throwaway cluster in a temp folder; the folder is deleted when it stops (or this process exits). */
async function startCluster(binDir: string): Promise<Cluster> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-pg-'));
  const data = path.join(root, 'data');
  const log = path.join(root, 'postgres.log');
  const socketDir = path.join(root, 'sock');
  fs.mkdirSync(socketDir);
  if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres', root]);
  const pgCtl = path.join(binDir, 'pg_ctl');
  let stopped = false;
  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stopSync);
    try {
      runAsServerUser(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop']);
    } catch {
      // not running (start failed): nothing to stop
    }
    fs.rmSync(root, { recursive: true, force: true });
  };
  process.on('exit', stopSync);
  try {
    const initdb = path.join(binDir, 'initdb');
    const initdbArgs = ['--encoding=UTF8', '--locale=C.UTF-8', '--auth=trust', '-U', 'postgres'];
    runAsServerUser(initdb, ['-D', data, ...initdbArgs]);
    const port = await freePort();
    const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${socketDir}`;
    runAsServerUser(pgCtl, ['-D', data, '-l', log, '-o', options, '-w', 'start']);
    return { url: `postgresql://postgres@127.0.0.1:${port}/postgres`, stopSync };
  } catch (error) {
    const tail = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').at(-1) : '';
    stopSync();
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim().split('\n').at(-1);
    throw new Error(
      `could not start a PostgreSQL cluster with ${binDir}: ${stderr || tail || String(error)}`,
    );
  }
}

function installNote(): string {
  const said = process.env.GROOVE_POSTGRES_INSTALL;
  return said ? ` (.ci/run: ${said})` : '';
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

let databaseCount = 0;

function serverHandle(serverUrl: string, cluster: Cluster | null): TestPostgres {
  return {
    skipReason: null,
    async createDatabase() {
      databaseCount += 1;
      const name = `groove_test_${process.pid}_${databaseCount}_${Date.now().toString(36)}`;
      await withClient(serverUrl, (client) =>
        client.query(
          `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_CTYPE 'C.UTF-8' LC_COLLATE 'C.UTF-8'`,
        ),
      );
      return {
        url: databaseUrl(serverUrl, name),
        name,
        drop: () =>
          withClient(serverUrl, (client) => client.query(`DROP DATABASE ${name} WITH (FORCE)`)).then(),
      };
    },
    async stop() {
      cluster?.stopSync();
    },
  };
}

function skipping(reason: string): TestPostgres {
  const refuse = () => Promise.reject(new Error(`no PostgreSQL server: ${reason}`));
  return { skipReason: reason, createDatabase: refuse, stop: async () => {} };
}

/**
 * The server for this test file. With GROOVE_TEST_PG_URL set (CI) a server that does not answer is an error,
 * not a skip: CI promised one. Without it, a cluster is started here when the binaries exist; the returned
 * skipReason says why not otherwise, quoting what `.ci/run` reported (GROOVE_POSTGRES_INSTALL).
 */
export async function openTestPostgres(): Promise<TestPostgres> {
  const given = process.env.GROOVE_TEST_PG_URL;
  if (given) {
    await withClient(given, (client) => client.query('SELECT 1'));
    return serverHandle(given, null);
  }
  const binDir = findPostgresBinDir();
  if (binDir === null) {
    return skipping(
      `no PostgreSQL server: GROOVE_TEST_PG_URL is unset and no initdb was found (GROOVE_PG_BINDIR, pg_config --bindir, /usr/lib/postgresql/*/bin)${installNote()} — install it with \`apt-get install postgresql-15\``,
    );
  }
  try {
    const cluster = await startCluster(binDir);
    return serverHandle(cluster.url, cluster);
  } catch (error) {
    return skipping(`${(error as Error).message}${installNote()}`);
  }
}
