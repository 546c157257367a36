// The coordination SQL (schema, version bump, change log, NOTIFY, advisory-lock functions) on PGlite over
// pglite-socket with the `pg` driver — and why the writer role and the listener are not tested there: every
// connection is the same single session, so a second connection also "gets" a held advisory lock, and a NOTIFY
// comes back on the connection that sent it, not on the one that LISTENs. Those two facts are asserted, so the
// docs (docs/scale-out.md) learn when PGlite changes.
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMIT_CHANNEL,
  ensureCoordinationSchema,
  readChangesSince,
  readCommittedVersion,
  recordCommit,
} from '../../../src/store/postgres/commit-notices.js';
import { writerLockKey } from '../../../src/store/postgres/writer-role.js';
import { freePort } from '../../support/postgres-server.js';

describe('coordination SQL on PGlite over pglite-socket', () => {
  let db: PGlite;
  let server: PGLiteSocketServer;
  let first: pg.Client;
  let second: pg.Client;

  beforeAll(async () => {
    db = await PGlite.create();
    const port = await freePort();
    server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 2 });
    await server.start();
    const settings = { host: '127.0.0.1', port, user: 'postgres', database: 'postgres' };
    first = new pg.Client(settings);
    second = new pg.Client(settings);
    await first.connect();
    await second.connect();
  });

  afterAll(async () => {
    await first?.end();
    await second?.end();
    await server?.stop();
    await db?.close();
  });

  it('creates the tables, records commits in a transaction and reads the changes back', async () => {
    await ensureCoordinationSchema(first);
    await ensureCoordinationSchema(first);
    const notices: string[] = [];
    first.on('notification', (message) => notices.push(message.payload ?? ''));
    await first.query('BEGIN');
    expect(await recordCommit(first, 'kb', [{ chunkId: 1, op: 'upsert' }])).toBe(1);
    await first.query('COMMIT');
    await first.query('BEGIN');
    await recordCommit(first, 'kb', [{ chunkId: 1, op: 'delete' }]);
    await first.query('ROLLBACK');
    expect(await readCommittedVersion(second, 'kb')).toBe(1);
    expect(await readChangesSince(second, 'kb', 0)).toEqual({
      kind: 'changes',
      toVersion: 1,
      changes: [{ chunkId: 1, op: 'upsert' }],
    });
    expect(notices).toEqual([]); // nobody LISTENs yet
  });

  it('is one session: a second connection also gets a held advisory lock', async () => {
    const key = writerLockKey('kb');
    const got = async (client: pg.Client) =>
      (await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS got', [...key])).rows[0]!
        .got;
    expect(await got(first)).toBe(true);
    expect(await got(second)).toBe(true); // on a real server: false
    const pids = await Promise.all(
      [first, second].map(
        async (client) => (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid,
      ),
    );
    expect(pids[0]).toBe(pids[1]);
  });

  it("is one session: a NOTIFY arrives on the sender's connection, not the listener's", async () => {
    const heard = { first: [] as string[], second: [] as string[] };
    first.on('notification', (message) => heard.first.push(message.payload ?? ''));
    second.on('notification', (message) => heard.second.push(message.payload ?? ''));
    await first.query(`LISTEN ${COMMIT_CHANNEL}`);
    await second.query('BEGIN');
    await recordCommit(second, 'kb', [{ chunkId: 2, op: 'upsert' }]);
    await second.query('COMMIT');
    await first.query('SELECT 1');
    await second.query('SELECT 1');
    expect(heard.second).toEqual([JSON.stringify({ kbId: 'kb', version: 2 })]);
    expect(heard.first).toEqual([]); // on a real server: the listener hears it
  });
});
