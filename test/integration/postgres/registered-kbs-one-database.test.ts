// Two registered KBs whose one config file names the same PostgreSQL database and no `[storage] kb`: each is
// stored as its own KB under its registered name, `groove serve --kb a --kb b` holds one writer role per KB, and
// a search across both ranks them as one corpus exactly as the same two folders registered on SQLite do. Real
// PostgreSQL 15, real processes (the built CLI), a real MCP SDK client over stdio; skipped, saying why, only
// when no server can be had or the CLI is not built.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPostgres, type TestDatabase } from '../../support/postgres-server.js';
import { binPath, runBin } from '../../support/run-bin.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const hasDist = fs.existsSync(path.join(repoRoot, 'dist/src/cli/main.js'));
const server = await openTestPostgres();
const skipReason = server.skipReason ?? (hasDist ? null : 'no dist/ build — run `npm run build`');
if (skipReason) process.stderr.write(`registered KBs on PostgreSQL skipped: ${skipReason}\n`);
const title = skipReason
  ? `registered KBs in one PostgreSQL database (skipped: ${skipReason})`
  : 'registered KBs in one PostgreSQL database';

async function query<R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

const NOTES: Record<string, Record<string, string>> = {
  a: {
    'falcon.md': '# Falcon\n\nThe peregrine falcon stoops at great speed over the cliffs.\n',
    'heron.md': '# Heron\n\nA grey heron waits in the shallows; no falcon here.\n',
  },
  b: {
    'stoop.md': '# Stoop\n\nA falcon stoop, a falcon dive, a falcon strike: falcon after falcon.\n',
    'owl.md': '# Owl\n\nThe barn owl hunts at night over the meadow.\n',
  },
};

describe.skipIf(skipReason !== null)(title, { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let root: string;
  beforeAll(async () => {
    database = await server.createDatabase();
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-pg-kbs-')));
  });
  afterAll(async () => {
    fs.rmSync(root, { recursive: true, force: true });
    await database?.drop();
    await server.stop();
  });

  const env = () => ({
    HOME: path.join(root, 'home'),
    GROOVE_HOME: path.join(root, 'groove'),
    GROOVE_RUNTIME_DIR: path.join(root, 'run'),
    GROOVE_MODEL_DIR: path.join(root, 'models'),
    GROOVE_NO_SERVER: '1',
    XDG_CONFIG_HOME: path.join(root, 'xdg-config'),
    XDG_DATA_HOME: path.join(root, 'xdg-data'),
    XDG_CACHE_HOME: path.join(root, 'xdg-cache'),
    XDG_STATE_HOME: path.join(root, 'xdg-state'),
  });
  const groove = (args: string[]) => {
    const run = runBin(args, root, env());
    expect(run.code, `groove ${args.join(' ')}: ${run.stderr}`).toBe(0);
    return run;
  };

  /** Register each of NOTES' KBs as `<prefix><name>` with `configFile`, and index it. */
  function registerAll(prefix: string, configFile: string): void {
    for (const [name, files] of Object.entries(NOTES)) {
      const folder = path.join(root, 'kbs', `${prefix}${name}`);
      fs.mkdirSync(folder, { recursive: true });
      for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(folder, file), text);
      groove(['kb', 'add', `${prefix}${name}`, folder, '--config', configFile]);
      groove(['index', '--kb', `${prefix}${name}`, '--quiet']);
    }
  }

  it('stores each under its registered name, one writer role each, and ranks both as one corpus', async () => {
    const pgConfig = path.join(root, 'pg.toml');
    fs.writeFileSync(pgConfig, `model = "none"\n[storage]\nbackend = "postgres"\nurl = "${database.url}"\n`);
    const sqliteConfig = path.join(root, 'sqlite.toml');
    fs.writeFileSync(sqliteConfig, 'model = "none"\n');
    registerAll('', pgConfig);
    registerAll('s', sqliteConfig);

    const stored = await query<{ name: string; documents: number }>(
      database.url,
      `SELECT k.name, (SELECT count(*)::int FROM groove_documents d WHERE d.kb_id = k.id) AS documents
         FROM groove_kbs k ORDER BY k.name`,
    );
    expect(stored).toEqual([
      { name: 'a', documents: 2 },
      { name: 'b', documents: 2 },
    ]);

    fs.mkdirSync(path.join(root, 'run'), { recursive: true, mode: 0o700 });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [binPath, 'serve', '--kb', 'a', '--kb', 'b', '--kb', 'sa', '--kb', 'sb', '--no-watch'],
      env: { ...(process.env as Record<string, string>), GROOVE_OFFLINE: '1', ...env() },
      cwd: root,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'pg-kbs', version: '1.0.0' });
    await client.connect(transport);
    try {
      const writerLocks = async () =>
        (
          await query<{ n: number }>(
            database.url,
            `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2`,
          )
        )[0]!.n;
      const deadline = Date.now() + 20_000;
      while ((await writerLocks()) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await writerLocks(), stderr).toBe(2);

      type Hit = { kb: string; path: string; score: number };
      const search = async (kb: string[]) =>
        (
          (await client.callTool({ name: 'search', arguments: { query: 'falcon', limit: 10, kb } }))
            .structuredContent as { results: Hit[] }
        ).results;
      const onPg = await search(['a', 'b']);
      const onSqlite = await search(['sa', 'sb']);
      expect(new Set(onPg.map((hit) => hit.kb))).toEqual(new Set(['a', 'b']));
      expect(onPg.map((hit) => [hit.kb, hit.path])).toEqual(
        onSqlite.map((hit) => [hit.kb.slice(1), hit.path]),
      );
      for (const [i, hit] of onPg.entries()) expect(hit.score).toBeCloseTo(onSqlite[i]!.score, 6);
    } finally {
      await client.close();
    }
  });
});
