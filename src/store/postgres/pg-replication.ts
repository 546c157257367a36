// One process taking part as a replica of a knowledge base: it contends for the writer role (writer-role.ts) and
// follows the KB's commits (commit-follower.ts), telling the application through ReplicaHooks. Both use their own
// dedicated sessions; change reads go through the store's pool.
import type pg from 'pg';
import type { CommitBatch, ReplicaHooks, ReplicaState } from '../../core/index-storage.js';
import { followCommits } from './commit-follower.js';
import type { ChangesSince, Queryable } from './commit-notices.js';
import { checkTimingMs } from './dedicated-session.js';
import { startWriterRole, type WriterRole } from './writer-role.js';

export interface ReplicationOptions {
  /** postgres://… of the primary (the role's lock and LISTEN need it). Never logged. */
  url: string;
  /** The KB's name: the key of its writer role and of its commit log. */
  kb: string;
  reads: Queryable;
  appliedVersion: number;
  hooks: ReplicaHooks;
}

export interface ReplicationHandle {
  readonly role: WriterRole;
  state(): ReplicaState;
  markApplied(version: number): void;
  stop(): Promise<void>;
}

/** A timing in milliseconds from the environment (operators tune take-over), checked like the role's options. */
function timing(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  return checkTimingMs(name, Number(raw));
}

/** The chunks a batch of commits touched (upserted): the replica re-reads their vectors and queue entries. */
function toBatch(batch: ChangesSince): CommitBatch {
  if (batch.kind === 'reload') return batch;
  const touched = batch.changes.filter((change) => change.op === 'upsert').map((change) => change.chunkId);
  return { kind: 'changes', toVersion: batch.toVersion, touchedChunkIds: touched };
}

export function startReplication(options: ReplicationOptions, env = process.env): ReplicationHandle {
  const connection: pg.ClientConfig = { connectionString: options.url };
  const { hooks } = options;
  const role = startWriterRole({
    connection,
    kbId: options.kb,
    retryIntervalMs: timing(env, 'GROOVE_PG_WRITER_RETRY_MS'),
    serverIdleTimeoutMs: timing(env, 'GROOVE_PG_IDLE_TIMEOUT_MS'),
    onBecameWriter: () => hooks.onBecameWriter(),
    onLostWriter: (loss) => hooks.onLostWriter(loss.reason),
  });
  const follower = followCommits({
    connection,
    kbId: options.kb,
    appliedVersion: options.appliedVersion,
    reads: options.reads,
    apply: (batch) => hooks.apply(toBatch(batch)),
    onApplyError: (error) => hooks.onApplyError(error),
  });
  const listener = follower.listener;
  return {
    role,
    state: () => ({
      role: role.state === 'writer' ? 'writer' : 'reader',
      appliedVersion: listener.appliedVersion,
      latestVersion: listener.latestVersion,
      lag: listener.lag(),
    }),
    markApplied: (version) => listener.markApplied(version),
    async stop() {
      await follower.stop();
      await role.stop();
    },
  };
}
