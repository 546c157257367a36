// Commit notices and the writer's fence on a real PostgreSQL server: the version row, change log and NOTIFY
// go out with a commit and never with a rollback; a reader hears each version once, in order, and catches up
// from the version row after its LISTEN session is killed; a writer whose session dies or loses the lock is
// refused and gives up the role. Skipped, saying why, only when no server can be had.
import fs from 'node:fs';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { followCommits } from '../../../src/store/postgres/commit-follower.js';
import {
  type CommitListener,
  type CommitNotice,
  listenForCommits,
} from '../../../src/store/postgres/commit-listener.js';
import {
  ensureCoordinationSchema,
  pruneChanges,
  readChangesSince,
  readCommittedVersion,
  recordCommit,
} from '../../../src/store/postgres/commit-notices.js';
import {
  startWriterRole,
  type WriterLoss,
  type WriterRole,
} from '../../../src/store/postgres/writer-role.js';
import { openTestPostgres, type TestDatabase } from '../../support/postgres-server.js';

const server = await openTestPostgres();
if (server.skipReason) process.stderr.write(`commit notice tests skipped: ${server.skipReason}\n`);
const title = server.skipReason
  ? `commit notices and the writer's fence (skipped: ${server.skipReason})`
  : "commit notices and the writer's fence";
const DEADLINE_MS = 20_000;

/** True when `pid` is a PostgreSQL server process on this machine that this process may signal. */
function isLocalServerProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    return false;
  }
}

/** Poll `check` until it is true; fail after a generous deadline (this asserts that it happens, not how fast). */
async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const until = Date.now() + DEADLINE_MS;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${DEADLINE_MS} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.skipIf(server.skipReason !== null)(title, () => {
  let database: TestDatabase;
  let admin: pg.Client;
  const stoppers: Array<() => Promise<void>> = [];

  const connection = () => ({ connectionString: database.url });
  const writer = async (kbId: string, losses: WriterLoss[] = []): Promise<WriterRole> => {
    const role = startWriterRole({
      connection: connection(),
      kbId,
      retryIntervalMs: 100,
      livenessIntervalMs: 100,
      onLostWriter: (loss) => losses.push(loss),
    });
    stoppers.push(() => role.stop());
    return role;
  };
  const listener = (kbId: string, notices: CommitNotice[], reconnectIntervalMs = 100): CommitListener => {
    const made = listenForCommits({
      connection: connection(),
      kbId,
      reconnectIntervalMs,
      onCommit: (notice) => notices.push(notice),
    });
    stoppers.push(() => made.stop());
    return made;
  };
  const commit = (role: WriterRole, kbId: string, chunkIds: number[], op: 'upsert' | 'delete' = 'upsert') =>
    role.withWriterTransaction((client) =>
      recordCommit(
        client,
        kbId,
        chunkIds.map((chunkId) => ({ chunkId, op })),
      ),
    );

  beforeAll(async () => {
    database = await server.createDatabase();
    admin = new pg.Client(connection());
    await admin.connect();
    await ensureCoordinationSchema(admin);
  });
  afterEach(async () => {
    await Promise.all(stoppers.splice(0).map((stop) => stop()));
  });
  afterAll(async () => {
    await admin?.end();
    await database?.drop();
    await server.stop();
  });

  it('creates the coordination tables once, from many sessions at the same time', async () => {
    await admin.query('DROP TABLE kb_versions, kb_changes');
    const clients = Array.from({ length: 4 }, () => new pg.Client(connection()));
    await Promise.all(clients.map((client) => client.connect()));
    await Promise.all(clients.map((client) => ensureCoordinationSchema(client)));
    await ensureCoordinationSchema(clients[0]!);
    await Promise.all(clients.map((client) => client.end()));
    const pool = new pg.Pool(connection());
    await ensureCoordinationSchema(pool);
    await pool.end();
    const { rows } = await admin.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE tablename IN ('kb_versions', 'kb_changes') ORDER BY 1`,
    );
    expect(rows.map((row) => row.name)).toEqual(['kb_changes', 'kb_versions']);
  });

  it('a reader hears each committed version once and in order; a rollback sends nothing', async () => {
    const role = await writer('kb-order');
    const notices: CommitNotice[] = [];
    const reader = listener('kb-order', notices);
    const other: CommitNotice[] = [];
    listener('kb-other', other);
    await eventually(() => role.state === 'writer' && reader.backendPid !== null, 'writer and listener up');
    for (let index = 1; index <= 5; index += 1) await commit(role, 'kb-order', [index]);
    const refused = role.withWriterTransaction(async (client) => {
      await recordCommit(client, 'kb-order', [{ chunkId: 99, op: 'upsert' }]);
      throw new Error('the indexer failed half-way');
    });
    await expect(refused).rejects.toThrow('half-way');
    await commit(role, 'kb-order', [6]);
    await eventually(() => reader.latestVersion === 6, 'version 6 heard');
    expect(notices.map((notice) => [notice.version, notice.source])).toEqual(
      [1, 2, 3, 4, 5, 6].map((version) => [version, 'notify']),
    );
    expect(await readCommittedVersion(admin, 'kb-order')).toBe(6);
    const changes = await readChangesSince(admin, 'kb-order', 0);
    expect(changes).toEqual({
      kind: 'changes',
      toVersion: 6,
      changes: [1, 2, 3, 4, 5, 6].map((chunkId) => ({ chunkId, op: 'upsert' })),
    });
    expect(other).toEqual([]);
  });

  it('a reader whose LISTEN session is killed catches up from the version row and the change log', async () => {
    const role = await writer('kb-catch-up');
    const notices: CommitNotice[] = [];
    const reader = listener('kb-catch-up', notices, 1_500);
    await eventually(() => role.state === 'writer' && reader.backendPid !== null, 'writer and listener up');
    await commit(role, 'kb-catch-up', [1, 2]);
    await eventually(() => reader.latestVersion === 1, 'version 1 heard');
    reader.markApplied(1);
    expect(reader.lag()).toEqual({ versions: 0, ms: 0, listening: true });

    await admin.query('SELECT pg_terminate_backend($1)', [reader.backendPid]);
    await eventually(() => reader.backendPid === null, 'the listener notices its session died');
    await commit(role, 'kb-catch-up', [3]);
    await commit(role, 'kb-catch-up', [2], 'delete');
    await commit(role, 'kb-catch-up', [3, 4]);
    await eventually(() => reader.latestVersion === 4, 'caught up to version 4');
    expect(notices.map((notice) => [notice.version, notice.source])).toEqual([
      [1, 'notify'],
      [4, 'catch-up'],
    ]);
    const lag = reader.lag();
    expect(lag.versions).toBe(3);
    expect(lag.listening).toBe(true);
    expect(await readChangesSince(admin, 'kb-catch-up', 1)).toEqual({
      kind: 'changes',
      toVersion: 4,
      changes: [
        { chunkId: 2, op: 'delete' },
        { chunkId: 3, op: 'upsert' },
        { chunkId: 4, op: 'upsert' },
      ],
    });
    reader.markApplied(4);
    expect(reader.lag()).toEqual({ versions: 0, ms: 0, listening: true });
    await commit(role, 'kb-catch-up', [5]);
    await eventually(() => reader.latestVersion === 5, 'NOTIFY heard again after reconnecting');
    expect(notices.at(-1)).toEqual({ kbId: 'kb-catch-up', version: 5, source: 'notify' });
  });

  it('a follower keeps a snapshot equal to the committed chunks, across a killed LISTEN session', async () => {
    const role = await writer('kb-follow');
    const pool = new pg.Pool({ ...connection(), max: 2 });
    const snapshot = new Set<number>();
    const batches: number[] = [];
    const follower = followCommits({
      connection: connection(),
      kbId: 'kb-follow',
      reads: pool,
      reconnectIntervalMs: 100,
      apply: async (batch) => {
        if (batch.kind === 'reload') throw new Error('no reload expected');
        for (const change of batch.changes) {
          if (change.op === 'upsert') snapshot.add(change.chunkId);
          else snapshot.delete(change.chunkId);
        }
        batches.push(batch.toVersion);
      },
    });
    stoppers.push(async () => {
      await follower.stop();
      await pool.end();
    });
    await eventually(() => role.state === 'writer' && follower.listener.backendPid !== null, 'both up');
    for (let index = 1; index <= 6; index += 1) await commit(role, 'kb-follow', [index, index + 10]);
    await commit(role, 'kb-follow', [2, 11], 'delete');
    await eventually(() => follower.listener.appliedVersion === 7, 'applied version 7');
    await admin.query('SELECT pg_terminate_backend($1)', [follower.listener.backendPid]);
    await commit(role, 'kb-follow', [20]);
    await commit(role, 'kb-follow', [20], 'delete');
    await commit(role, 'kb-follow', [21]);
    await eventually(() => follower.listener.appliedVersion === 10, 'applied version 10 after reconnecting');
    expect([...snapshot].sort((a, b) => a - b)).toEqual([1, 3, 4, 5, 6, 12, 13, 14, 15, 16, 21]);
    expect(batches).toEqual([...batches].sort((a, b) => a - b));
    expect(batches.at(-1)).toBe(10);
    expect(follower.listener.lag()).toMatchObject({ versions: 0, ms: 0 });
  });

  it('a reader behind the pruned change log is told to reload', async () => {
    const role = await writer('kb-prune');
    await eventually(() => role.state === 'writer', 'writer up');
    for (let index = 1; index <= 3; index += 1) await commit(role, 'kb-prune', [index]);
    const deleted = await role.withWriterTransaction((client) => pruneChanges(client, 'kb-prune', 2));
    expect(deleted).toBe(2);
    expect(await readChangesSince(admin, 'kb-prune', 1)).toEqual({ kind: 'reload', toVersion: 3 });
    expect(await readChangesSince(admin, 'kb-prune', 2)).toEqual({
      kind: 'changes',
      toVersion: 3,
      changes: [{ chunkId: 3, op: 'upsert' }],
    });
  });

  it('a writer whose session the server ends is refused, commits nothing, and a standby takes over', async () => {
    const lossesA: WriterLoss[] = [];
    const roleA = await writer('kb-fence', lossesA);
    await eventually(() => roleA.state === 'writer', 'A is writer');
    const roleB = await writer('kb-fence');
    await commit(roleA, 'kb-fence', [1]);
    const pid = roleA.writerBackendPid;
    const cutOff = roleA.withWriterTransaction(async (client) => {
      await recordCommit(client, 'kb-fence', [{ chunkId: 2, op: 'upsert' }]);
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await client.query('SELECT 1');
    });
    await expect(cutOff).rejects.toMatchObject({ code: 'WRITER_ROLE_LOST' });
    await expect(commit(roleA, 'kb-fence', [3])).rejects.toMatchObject({ code: 'WRITER_ROLE_LOST' });
    expect(lossesA.map((loss) => loss.reason)).toEqual(['connection-lost']);
    expect(await readCommittedVersion(admin, 'kb-fence')).toBe(1);
    // A would contend again with a new session; stopped, it leaves the role to B.
    await roleA.stop();
    await eventually(() => roleB.state === 'writer', 'B takes over');
    expect(await commit(roleB, 'kb-fence', [2])).toBe(2);
  });

  it('a writer whose session no longer holds the lock finds out before its next commit', async () => {
    const losses: WriterLoss[] = [];
    const role = await writer('kb-unlocked', losses);
    await eventually(() => role.state === 'writer', 'writer up');
    const [namespace, kbKey] = role.lockKey;
    await role.withWriterTransaction((client) =>
      client.query('SELECT pg_advisory_unlock($1, $2)', [namespace, kbKey]),
    );
    await expect(commit(role, 'kb-unlocked', [1])).rejects.toMatchObject({ code: 'WRITER_ROLE_LOST' });
    expect(losses.map((loss) => loss.reason)).toEqual(['lock-missing']);
    expect(await readCommittedVersion(admin, 'kb-unlocked')).toBe(0);
    await eventually(() => role.state === 'writer', 'it takes the free lock again');
  });

  it('a writer whose server session stops answering gives up the role; a new session takes it once the old is gone', async (context) => {
    const losses: WriterLoss[] = [];
    const roleA = startWriterRole({
      connection: connection(),
      kbId: 'kb-frozen',
      retryIntervalMs: 100,
      livenessIntervalMs: 100,
      livenessTimeoutMs: 500,
      onLostWriter: (loss) => losses.push(loss),
    });
    stoppers.push(() => roleA.stop());
    await eventually(() => roleA.state === 'writer', 'A is writer');
    const roleB = await writer('kb-frozen');
    const frozenPid = roleA.writerBackendPid!;
    if (!isLocalServerProcess(frozenPid)) {
      process.stderr.write(
        `frozen-session test skipped: backend ${frozenPid} is not a postgres process here\n`,
      );
      context.skip();
    }
    // SIGSTOP the server process behind A's session: it neither answers nor closes, like a half-open connection.
    process.kill(frozenPid, 'SIGSTOP');
    try {
      await eventually(() => losses.length > 0, 'A notices the silence');
      expect(losses.map((loss) => loss.reason)).toEqual(['liveness-timeout']);
      await expect(commit(roleA, 'kb-frozen', [1])).rejects.toMatchObject({ code: 'WRITER_ROLE_LOST' });
      expect(roleB.state).toBe('standby'); // the frozen backend still holds the lock on the server
    } finally {
      process.kill(frozenPid, 'SIGCONT');
    }
    // Once the resumed backend sees its client gone, the lock frees; A (with a new session) or B takes it.
    const writers = () => [roleA, roleB].filter((role) => role.state === 'writer');
    await eventually(() => writers().length > 0, 'a new writer once the frozen session is gone');
    expect(writers()).toHaveLength(1);
    const winner = writers()[0]!;
    expect(winner.writerBackendPid).not.toBe(frozenPid);
    const { rows } = await admin.query(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid::bigint = $1
         AND objid::bigint = $2`,
      [...winner.lockKey],
    );
    expect(rows.map((row) => row.pid)).toEqual([winner.writerBackendPid]);
    expect(await commit(winner, 'kb-frozen', [1])).toBe(1);
  });

  it('stop() unlocks at once, and the role refuses writes after it', async () => {
    const losses: WriterLoss[] = [];
    const role = await writer('kb-stop', losses);
    await eventually(() => role.state === 'writer', 'writer up');
    await role.stop();
    expect(losses.map((loss) => loss.reason)).toEqual(['stopped']);
    const { rows } = await admin.query('SELECT pg_try_advisory_lock($1, $2) AS got', [...role.lockKey]);
    expect(rows[0].got).toBe(true);
    await admin.query('SELECT pg_advisory_unlock($1, $2)', [...role.lockKey]);
    await expect(commit(role, 'kb-stop', [1])).rejects.toMatchObject({ code: 'WRITER_ROLE_LOST' });
  });
});
