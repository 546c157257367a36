// What a running server reports about itself (the status page's `/api/status`): the index's counts and identity
// (the facade's `status`), the doctor's findings, the index runner's current and recent runs, and what live sync
// is doing. A part that cannot be read becomes a problem of its own, so one broken part never hides the others.
// The doctor reads every table: it runs at most once per `doctorMaxAgeMs`, and again after each finished run.
import { isGrooveError } from '../../errors.js';
import { type DoctorReport, doctorReportToJson } from '../doctor/index.js';
import { indexSummaryToJson, type StatusReport, statusReportToJson } from '../indexing/index.js';
import type { KnowledgeBase } from '../knowledge-base.js';
import type { IndexRunner, IndexRunnerStatus, IndexRunRecord } from './index-runner.js';
import type { LiveSyncHandle, LiveSyncStats } from './live-sync.js';
import type { ServedKb } from './served-kbs.js';

/** Why a part of the status could not be read: the error's code, message and hint. */
export interface StatusProblem {
  code: string;
  message: string;
  hint: string | null;
}

/** A part of the status: its value, or the problem that kept it from being read. */
export type StatusPart<T> = { value: T; problem: null } | { value: null; problem: StatusProblem };

export interface ServeStatus {
  version: string;
  kbPath: string;
  /** Epoch milliseconds. */
  generatedAt: number;
  index: StatusPart<StatusReport>;
  doctor: StatusPart<DoctorReport>;
  /** When the doctor report (or its problem) was made; reports are reused for a while. */
  doctorCheckedAt: number;
  indexing: IndexRunnerStatus;
  /** null when the server is not watching the folder (`--no-watch`). */
  watcher: LiveSyncStats | null;
}

export interface StatusBoardSources {
  kb: Pick<KnowledgeBase, 'kbPath' | 'status' | 'doctor'>;
  runner: Pick<IndexRunner, 'status'>;
  /** The live sync whose stats to show, or a function giving the current one (a replica's changes with its role). */
  sync: Pick<LiveSyncHandle, 'stats'> | null | (() => Pick<LiveSyncHandle, 'stats'> | null);
  version: string;
  now?: () => number;
  /** Default 60 s. */
  doctorMaxAgeMs?: number;
}

/** Reads the server's status on demand, keeping the last doctor report until it is stale. */
export class StatusBoard {
  private readonly sources: StatusBoardSources;
  private readonly now: () => number;
  private readonly doctorMaxAgeMs: number;
  private doctorCache: { part: StatusPart<DoctorReport>; at: number; afterRuns: number } | null = null;

  constructor(sources: StatusBoardSources) {
    this.sources = sources;
    this.now = sources.now ?? Date.now;
    this.doctorMaxAgeMs = sources.doctorMaxAgeMs ?? 60_000;
  }

  read(): ServeStatus {
    const { kb, runner, version } = this.sources;
    const sync = typeof this.sources.sync === 'function' ? this.sources.sync() : this.sources.sync;
    const indexing = runner.status();
    const doctor = this.doctor(indexing.completedRuns);
    return {
      version,
      kbPath: kb.kbPath,
      generatedAt: this.now(),
      index: attempt(() => kb.status()),
      doctor: doctor.part,
      doctorCheckedAt: doctor.at,
      indexing,
      watcher: sync ? sync.stats() : null,
    };
  }

  /** The cached doctor report while it is younger than the limit and no run has finished since. */
  private doctor(completedRuns: number): { part: StatusPart<DoctorReport>; at: number } {
    const cached = this.doctorCache;
    const now = this.now();
    if (cached && cached.afterRuns === completedRuns && now - cached.at < this.doctorMaxAgeMs) return cached;
    const fresh = { part: attempt(() => this.sources.kb.doctor()), at: now, afterRuns: completedRuns };
    this.doctorCache = fresh;
    return fresh;
  }
}

function attempt<T>(read: () => T): StatusPart<T> {
  try {
    return { value: read(), problem: null };
  } catch (error) {
    return { value: null, problem: problemOf(error) };
  }
}

function problemOf(error: unknown): StatusProblem {
  if (isGrooveError(error)) return { code: error.code, message: error.message, hint: error.hint ?? null };
  return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error), hint: null };
}

/** The one wire form of a server's status (`GET /api/status`); the index and doctor parts are the CLI's JSON. */
export function serveStatusToJson(status: ServeStatus): Record<string, unknown> {
  return {
    version: status.version,
    kb_path: status.kbPath,
    generated_at: new Date(status.generatedAt).toISOString(),
    index: status.index.value && statusReportToJson(status.index.value),
    index_error: status.index.problem,
    doctor: status.doctor.value && doctorReportToJson(status.doctor.value),
    doctor_error: status.doctor.problem,
    doctor_checked_at: new Date(status.doctorCheckedAt).toISOString(),
    indexing: {
      active: status.indexing.active && {
        kind: status.indexing.active.kind,
        force: status.indexing.active.force,
        running_ms: status.indexing.active.runningMs,
        embedding: status.indexing.active.embedding,
      },
      completed_runs: status.indexing.completedRuns,
      recent_runs: status.indexing.recentRuns.map(runRecordToJson),
    },
    watcher: status.watcher && {
      phase: status.watcher.phase,
      waiting_for_writer: status.watcher.waitingForWriter,
      last_failure: status.watcher.lastFailure,
      events: status.watcher.events,
      runs: status.watcher.runs,
      failures: status.watcher.failures,
      refused: status.watcher.refused,
      pending_paths: status.watcher.pendingPaths,
    },
  };
}

/**
 * `/api/status`'s `kbs` on a server of several KBs: each served KB by name, in serving order, with its health
 * ("ok" with its own status fields, or "folder missing" with its registered folder).
 */
export function servedKbsStatusToJson(
  entries: readonly ServedKb[],
  boards: ReadonlyMap<string, Pick<StatusBoard, 'read'>>,
): Record<string, unknown>[] {
  return entries.map((entry) => {
    const board = boards.get(entry.name);
    if (entry.state !== 'serving' || !board)
      return {
        name: entry.name,
        health: entry.state === 'removed' ? 'removed' : 'folder missing',
        kb_path: entry.state === 'serving' ? null : entry.kbPath,
      };
    return { name: entry.name, health: 'ok', ...serveStatusToJson(board.read()) };
  });
}

function runRecordToJson(run: IndexRunRecord): Record<string, unknown> {
  return {
    kind: run.kind,
    force: run.force,
    started_at: new Date(run.startedAt).toISOString(),
    duration_ms: run.durationMs,
    outcome: run.error ? 'failed' : 'ok',
    summary: run.summary && indexSummaryToJson(run.summary),
    error: run.error,
  };
}
