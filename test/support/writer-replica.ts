// A `groove serve` replica reduced to its writer role, for the multi-process tests:
//   node --import tsx writer-replica.ts contend|append|append-unfenced URL KB_ID [SERVER_IDLE_TIMEOUT_MS]
// It prints one JSON line per event on stdout ({event:'started'|'writer'|'lost'|'committed'|'stopped', …}) and
// stops (unlocking) when its stdin closes. 'append' writes the demo protocol while writer: each transaction
// appends row n = max(n)+1 to demo_rows and records commit version n. 'append-unfenced' does the same without
// the writer role, to show the check that catches doubled rows can fail. Test-only.
import pg from 'pg';
import { recordCommit } from '../../src/store/postgres/commit-notices.js';
import { startWriterRole } from '../../src/store/postgres/writer-role.js';

const [mode, url, kbId, idleTimeout] = process.argv.slice(2);
if (!mode || !url || !kbId)
  throw new Error('usage: writer-replica.ts contend|append|append-unfenced URL KB_ID');
const connection = { connectionString: url };

function say(event: string, details: Record<string, unknown> = {}): void {
  const at = performance.timeOrigin + performance.now(); // the replica's own clock: pipes may reorder lines
  process.stdout.write(`${JSON.stringify({ event, pid: process.pid, at, ...details })}\n`);
}

const stdinClosed = new Promise<void>((resolve) => {
  process.stdin.on('end', resolve);
  process.stdin.on('close', resolve);
  process.stdin.resume();
});
let stopping = false;
void stdinClosed.then(() => (stopping = true));

/** One demo transaction: the version bump with its notice, then row n = max(n)+1 tagged with that version. */
async function appendNext(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ next: number }>(
    'SELECT coalesce(max(n), 0) + 1 AS next FROM demo_rows',
  );
  const next = rows[0]!.next;
  await client.query('SELECT pg_sleep(0.005)'); // widen the window in which a second writer would double n
  const version = await recordCommit(client, kbId!, [{ chunkId: next, op: 'upsert' }]);
  await client.query('INSERT INTO demo_rows (n, version, writer_pid) VALUES ($1, $2, $3)', [
    next,
    version,
    process.pid,
  ]);
  return next;
}

async function appendUnfenced(): Promise<void> {
  const client = new pg.Client(connection);
  await client.connect();
  say('started');
  while (!stopping) {
    await client.query('BEGIN');
    try {
      const n = await appendNext(client);
      await client.query('COMMIT');
      say('committed', { n });
    } catch {
      await client.query('ROLLBACK');
    }
  }
  await client.end();
}

async function withRole(append: boolean): Promise<void> {
  let writing: Promise<void> = Promise.resolve();
  const role = startWriterRole({
    connection,
    kbId: kbId!,
    retryIntervalMs: 200,
    livenessIntervalMs: 200,
    livenessTimeoutMs: 2_000,
    serverIdleTimeoutMs: idleTimeout ? Number(idleTimeout) : 30_000,
    onBecameWriter: () => {
      say('writer', { backendPid: role.writerBackendPid });
      if (append) writing = appendWhileWriter();
    },
    onLostWriter: (loss) => say('lost', { reason: loss.reason }),
  });
  const appendWhileWriter = async () => {
    while (!stopping && role.state === 'writer') {
      try {
        const n = await role.withWriterTransaction(appendNext);
        say('committed', { n });
      } catch (error) {
        say('refused', { code: (error as { code?: string }).code ?? 'other' });
      }
    }
  };
  say('started');
  await stdinClosed;
  await writing;
  await role.stop();
}

if (mode === 'append-unfenced') await appendUnfenced();
else await withRole(mode === 'append');
say('stopped');
