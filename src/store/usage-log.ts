// The usage file of a knowledge base (usage.db in its own folder under groove's data folder, never in the KB):
// each document a search served under an agent's task id, and whether that task later fetched it. Bounded by
// age and count: every write first drops what is past either limit.
import fs from 'node:fs';
import Database from 'better-sqlite3';

export const USAGE_FILE_NAME = 'usage.db';
/** Served (task, document) pairs kept before a write (one search's pairs may add to it); the oldest go first. */
export const MAX_SERVED_PAIRS = 50_000;
/** Pairs first served longer ago than this are dropped. */
export const USAGE_RETENTION_DAYS = 90;

const DAY_MS = 24 * 60 * 60 * 1000;

const SCHEMA = `CREATE TABLE IF NOT EXISTS served_documents (
  task_id TEXT NOT NULL,
  path TEXT NOT NULL,
  first_served_at TEXT NOT NULL,
  best_rank INTEGER NOT NULL,
  fetched_at TEXT,
  UNIQUE (task_id, path)
);
CREATE INDEX IF NOT EXISTS served_documents_age ON served_documents(first_served_at)`;

/** One served (task, document) pair, as the usage file lists it. */
export interface ServedPair {
  taskId: string;
  path: string;
  fetched: boolean;
}

export class UsageLog {
  private constructor(private readonly db: Database.Database) {}

  /** Open (creating when `create`) the usage file; null when it does not exist and `create` is false. */
  static open(filePath: string, options: { create: boolean }): UsageLog | null {
    if (!options.create && !fs.existsSync(filePath)) return null;
    const db = new Database(filePath, { fileMustExist: !options.create });
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.exec(SCHEMA);
    return new UsageLog(db);
  }

  /** Note that `paths` (best first) were served for `taskId`; a pair served before keeps its first time. */
  recordServed(taskId: string, paths: readonly string[], at: Date): void {
    const upsert = this.db.prepare(`INSERT INTO served_documents(task_id, path, first_served_at, best_rank)
      VALUES (?, ?, ?, ?)
      ON CONFLICT (task_id, path) DO UPDATE SET best_rank = min(best_rank, excluded.best_rank)`);
    this.db.transaction(() => {
      this.prune(at);
      paths.forEach((path, i) => {
        upsert.run(taskId, path, at.toISOString(), i + 1);
      });
    })();
  }

  /** Mark `path` fetched for `taskId`; false when that task was never served it (nothing is stored then). */
  recordFetch(taskId: string, path: string, at: Date): boolean {
    const marked = this.db
      .prepare(
        'UPDATE served_documents SET fetched_at = coalesce(fetched_at, ?) WHERE task_id = ? AND path = ?',
      )
      .run(at.toISOString(), taskId, path);
    return marked.changes > 0;
  }

  /**
   * Distinct tasks, served pairs, fetched pairs, and how many of the `judged` (task, document) pairs were served;
   * `judged` null when the judgments cannot be read (then so is the count).
   */
  counts(judged: readonly { taskId: string; path: string }[] | null): {
    tasks: number;
    served: number;
    fetched: number;
    judged: number | null;
  } {
    const totals = this.db
      .prepare(
        'SELECT count(DISTINCT task_id) AS tasks, count(*) AS served, count(fetched_at) AS fetched FROM served_documents',
      )
      .get() as { tasks: number; served: number; fetched: number };
    if (judged === null) return { ...totals, judged: null };
    const served = this.db.prepare('SELECT 1 FROM served_documents WHERE task_id = ? AND path = ?').pluck();
    const seen = new Set<string>();
    let count = 0;
    for (const { taskId, path } of judged) {
      const key = `${taskId}\u0000${path}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (served.get(taskId, path) !== undefined) count++;
    }
    return { ...totals, judged: count };
  }

  /** Every pair kept, oldest first. */
  servedPairs(): ServedPair[] {
    const rows = this.db
      .prepare(
        'SELECT task_id AS taskId, path, fetched_at IS NOT NULL AS fetched FROM served_documents ORDER BY first_served_at, rowid',
      )
      .all() as { taskId: string; path: string; fetched: number }[];
    return rows.map((row) => ({ taskId: row.taskId, path: row.path, fetched: row.fetched === 1 }));
  }

  close(): void {
    this.db.close();
  }

  /** Drop the pairs past the age limit, then the oldest beyond MAX_SERVED_PAIRS. */
  private prune(at: Date): void {
    const cutoff = new Date(at.getTime() - USAGE_RETENTION_DAYS * DAY_MS).toISOString();
    this.db.prepare('DELETE FROM served_documents WHERE first_served_at < ?').run(cutoff);
    const count = this.db.prepare('SELECT count(*) FROM served_documents').pluck().get() as number;
    const over = count - MAX_SERVED_PAIRS;
    if (over <= 0) return;
    this.db
      .prepare(
        'DELETE FROM served_documents WHERE rowid IN (SELECT rowid FROM served_documents ORDER BY first_served_at, rowid LIMIT ?)',
      )
      .run(over);
  }
}
