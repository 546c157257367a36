// The test harness's PostgreSQL server: a real server (version 15 or newer) whose per-file databases have a
// UTF-8 ctype, which Japanese trigrams need, and which are dropped afterwards. Skipped, saying why, only when
// no server can be had.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPostgres, type TestDatabase } from '../../support/postgres-server.js';

const server = await openTestPostgres();
if (server.skipReason) process.stderr.write(`postgres harness test skipped: ${server.skipReason}\n`);
const title = server.skipReason
  ? `postgres test harness (skipped: ${server.skipReason})`
  : 'postgres test harness';

describe.skipIf(server.skipReason !== null)(title, () => {
  let database: TestDatabase;
  let client: pg.Client;

  beforeAll(async () => {
    database = await server.createDatabase();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await database?.drop();
    await server.stop();
  });

  it('is a real PostgreSQL server, version 15 or newer', async () => {
    const { rows } = await client.query<{ num: string }>(
      `SELECT current_setting('server_version_num') AS num`,
    );
    expect(Number(rows[0]!.num)).toBeGreaterThanOrEqual(150000);
  });

  it('gives each test file its own UTF-8 database, so pg_trgm makes Japanese trigrams', async () => {
    const { rows } = await client.query<{ db: string; ctype: string; encoding: string }>(
      `SELECT current_database() AS db, datctype AS ctype, pg_encoding_to_char(encoding) AS encoding
       FROM pg_database WHERE datname = current_database()`,
    );
    expect(rows[0]).toEqual({ db: database.name, ctype: 'C.UTF-8', encoding: 'UTF8' });
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    const trigrams = await client.query<{ t: string[] }>(`SELECT show_trgm('東京の売上') AS t`);
    expect(trigrams.rows[0]!.t.length).toBeGreaterThan(0);
  });

  it('drops a database it made, even with a session still open on it', async () => {
    const extra = await server.createDatabase();
    const open = new pg.Client({ connectionString: extra.url });
    await open.connect();
    open.on('error', () => {}); // the drop ends this session
    await extra.drop();
    const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [extra.name]);
    expect(rows).toEqual([]);
    await open.end().catch(() => {});
  });
});
