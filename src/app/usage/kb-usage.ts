// Which served documents agents went on to fetch, per task id, kept in the KB's own folder (store/usage-log.ts).
// Recording never fails a search or a read: a usage file that cannot be written is said once and skipped.
import path from 'node:path';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { readJudgedPairs } from '../../store/feedback-store.js';
import { openForInspection } from '../../store/open-database.js';
import { USAGE_FILE_NAME, UsageLog } from '../../store/usage-log.js';
import type { UsageCounts } from '../indexing/index.js';
import { kbOwnFolder, kbOwnFolderPath } from '../indexing/index.js';

export interface KbUsageOwner {
  kbPath: string;
  dbPath: string;
  settings: () => ResolvedConfig;
  now: () => Date;
  /** Judgments live in the index file only on a SQLite index. */
  judgmentsReadable: boolean;
  /** Where a failure to record is said (serve: its log); silent when absent. */
  onNotice?: (line: string) => void;
}

/** Nothing served under a task id yet. */
export const NO_USAGE: UsageCounts = { tasks: 0, served: 0, fetched: 0, judged: 0 };

export class KbUsage {
  private log: UsageLog | null = null;
  private failed = false;

  constructor(private readonly owner: KbUsageOwner) {}

  /** A search under `taskId` served these documents, best first (a path served twice counts once). */
  noteServed(taskId: string, paths: readonly string[]): void {
    const distinct = [...new Set(paths)];
    if (distinct.length === 0) return;
    this.write((log) => log.recordServed(taskId, distinct, this.owner.now()));
  }

  /** `taskId` fetched `relPath`; true when a search had served it to that task. */
  noteFetched(taskId: string, relPath: string): boolean {
    return this.write((log) => log.recordFetch(taskId, relPath, this.owner.now())) ?? false;
  }

  /**
   * Served, fetched and judged counts; all zero before any search was served under a task id, null when the
   * usage file cannot be read.
   */
  counts(): UsageCounts | null {
    let log: UsageLog | null = this.log;
    try {
      log ??= UsageLog.open(this.filePath(false), { create: false });
      return log === null ? NO_USAGE : log.counts(this.judgedPairs());
    } catch {
      return null;
    } finally {
      if (log !== this.log) log?.close();
    }
  }

  close(): void {
    this.log?.close();
    this.log = null;
  }

  private write<T>(work: (log: UsageLog) => T): T | null {
    if (this.failed) return null;
    try {
      this.log ??= UsageLog.open(this.filePath(true), { create: true });
      return this.log === null ? null : work(this.log);
    } catch (error) {
      this.failed = true;
      const code = (error as { code?: unknown }).code;
      const why = typeof code === 'string' ? ` (${code})` : '';
      this.owner.onNotice?.(
        `could not write the usage file in the knowledge base's own folder${why}: served and fetched documents are not counted until groove restarts`,
      );
      return null;
    }
  }

  /** In the KB's own folder, created only for a write. */
  private filePath(create: boolean): string {
    const { kbPath, settings } = this.owner;
    const folder = create ? kbOwnFolder(settings(), kbPath) : kbOwnFolderPath(settings(), kbPath);
    return path.join(folder, USAGE_FILE_NAME);
  }

  /** Each (task, document) judged with record_feedback; null when the judgments cannot be read here. */
  private judgedPairs(): { taskId: string; path: string }[] | null {
    if (!this.owner.judgmentsReadable) return null;
    const db = openForInspection(this.owner.dbPath);
    if (db === null) return [];
    try {
      return readJudgedPairs(db);
    } catch {
      return null;
    } finally {
      db.close();
    }
  }
}
