// Agent judgments in the index file (feedback_serves + feedback_items): append one serve per record_feedback
// call, read them back for the golden build and for search's learned signals, move or drop them with a renamed
// or removed document, carry them into a forced rebuild's new file, and answer whether a judged document (and
// heading) is still indexed.
import {
  addServeEvidence,
  copyEvidenceFromPrevious,
  dropEvidence,
  ensureEvidenceFor,
  moveEvidence,
} from './feedback-evidence.js';
import type { SqliteDatabase } from './open-database.js';

export type StoredVerdict = 'helped' | 'noise' | 'wrong';

export interface StoredFeedbackItem {
  path: string;
  heading: string | null;
  verdict: StoredVerdict;
  alwaysServed: boolean;
}

export interface FeedbackServeInput {
  recordedAt: string;
  taskId: string;
  query: string;
  items: readonly StoredFeedbackItem[];
}

export interface StoredFeedbackServe {
  serveId: number;
  recordedAt: string;
  taskId: string;
  query: string;
  items: StoredFeedbackItem[];
}

/**
 * Append one serve and its items, and add them to the boost's stored sums for `halfLifeDays`, in one
 * transaction; returns the serve id.
 */
export function insertFeedbackServe(
  db: SqliteDatabase,
  serve: FeedbackServeInput,
  halfLifeDays: number,
): number {
  const insertServe = db.prepare('INSERT INTO feedback_serves(recorded_at, task_id, query) VALUES (?, ?, ?)');
  const insertItem =
    db.prepare(`INSERT INTO feedback_items(serve_id, position, path, heading, verdict, always_served)
    VALUES (?, ?, ?, ?, ?, ?)`);
  return db.transaction(() => {
    ensureEvidenceFor(db, halfLifeDays);
    const serveId = Number(insertServe.run(serve.recordedAt, serve.taskId, serve.query).lastInsertRowid);
    serve.items.forEach((item, position) => {
      insertItem.run(serveId, position, item.path, item.heading, item.verdict, item.alwaysServed ? 1 : 0);
    });
    addServeEvidence(db, serve, halfLifeDays);
    return serveId;
  })();
}

/** Every serve with its items, in recording order. */
export function readFeedbackServes(db: SqliteDatabase): StoredFeedbackServe[] {
  const serves = db
    .prepare(
      'SELECT id AS serveId, recorded_at AS recordedAt, task_id AS taskId, query FROM feedback_serves ORDER BY id',
    )
    .all() as Omit<StoredFeedbackServe, 'items'>[];
  const items = db
    .prepare(`SELECT serve_id AS serveId, path, heading, verdict, always_served AS alwaysServed
      FROM feedback_items ORDER BY serve_id, position`)
    .all() as (Omit<StoredFeedbackItem, 'alwaysServed'> & { serveId: number; alwaysServed: number })[];
  const byServe = new Map<number, StoredFeedbackItem[]>();
  for (const { serveId, alwaysServed, ...item } of items) {
    const list = byServe.get(serveId) ?? [];
    list.push({ ...item, alwaysServed: alwaysServed === 1 });
    byServe.set(serveId, list);
  }
  return serves.map((serve) => ({ ...serve, items: byServe.get(serve.serveId) ?? [] }));
}

/** Judged items stored, always-served ones included. */
export function countJudgedItems(db: SqliteDatabase): number {
  return db.prepare('SELECT count(*) FROM feedback_items').pluck().get() as number;
}

/**
 * A renamed document keeps its judgments: every item judged at `fromPath` now names `toPath`. Runs inside the
 * caller's transaction (the one that moves the document's rows). Returns how many items moved.
 */
export function moveJudgments(db: SqliteDatabase, fromPath: string, toPath: string): number {
  const moved = db.prepare('UPDATE feedback_items SET path = ? WHERE path = ?').run(toPath, fromPath).changes;
  if (moved > 0) moveEvidence(db, fromPath, toPath);
  return moved;
}

/**
 * A document that left the index takes its judgments with it (a new document at the same path later must not
 * inherit them); a serve left with no item goes too. Runs inside the caller's transaction. Returns how many
 * items were dropped.
 */
export function dropJudgments(db: SqliteDatabase, path: string): number {
  const dropped = db.prepare('DELETE FROM feedback_items WHERE path = ?').run(path).changes;
  if (dropped > 0) {
    dropEvidence(db, path);
    db.prepare(
      'DELETE FROM feedback_serves WHERE NOT EXISTS (SELECT 1 FROM feedback_items i WHERE i.serve_id = feedback_serves.id)',
    ).run();
  }
  return dropped;
}

/**
 * Copy every judgment of the index file at `fromPath` into `into` (a freshly built index), keeping serve ids
 * so recording order survives. A file from before feedback existed has nothing to copy.
 */
export function copyFeedbackFrom(into: SqliteDatabase, fromPath: string): { serves: number; items: number } {
  into.prepare('ATTACH DATABASE ? AS previous').run(fromPath);
  try {
    const hasTables = into
      .prepare(
        "SELECT count(*) FROM previous.sqlite_master WHERE type = 'table' AND name IN ('feedback_serves', 'feedback_items')",
      )
      .pluck()
      .get() as number;
    if (hasTables < 2) return { serves: 0, items: 0 };
    return into.transaction(() => {
      const serves = into
        .prepare(`INSERT INTO main.feedback_serves(id, recorded_at, task_id, query)
          SELECT id, recorded_at, task_id, query FROM previous.feedback_serves ORDER BY id`)
        .run().changes;
      const items = into
        .prepare(`INSERT INTO main.feedback_items(serve_id, position, path, heading, verdict, always_served)
          SELECT serve_id, position, path, heading, verdict, always_served FROM previous.feedback_items`)
        .run().changes;
      copyEvidenceFromPrevious(into);
      return { serves, items };
    })();
  } finally {
    into.exec('DETACH DATABASE previous');
  }
}

/**
 * Whether a document is indexed under exactly this path and, when a heading is given, has a chunk under it
 * (trimmed, case-insensitive — the golden hit rule). Answers are cached per path.
 */
export function createIndexedEntryCheck(
  db: SqliteDatabase,
): (path: string, heading: string | null) => boolean {
  const headingsOf = db.prepare(`SELECT c.heading FROM chunks c JOIN documents d ON d.id = c.document_id
    WHERE d.path = ? AND c.heading IS NOT NULL`);
  const documentExists = db.prepare('SELECT 1 FROM documents WHERE path = ?').pluck();
  const cache = new Map<string, Set<string> | null>();
  return (path, heading) => {
    if (!cache.has(path)) {
      const exists = documentExists.get(path) !== undefined;
      const headings = (headingsOf.pluck().all(path) as string[]).map((h) => h.trim().toLowerCase());
      cache.set(path, exists ? new Set(headings) : null);
    }
    const headings = cache.get(path);
    if (!headings) return false;
    return heading === null || headings.has(heading.trim().toLowerCase());
  };
}

/** Each (task id, path) an agent judged, once; empty when the index holds no judgment tables. */
export function readJudgedPairs(db: SqliteDatabase): { taskId: string; path: string }[] {
  const tables = db
    .prepare(
      "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('feedback_serves', 'feedback_items')",
    )
    .pluck()
    .get() as number;
  if (tables < 2) return [];
  return db
    .prepare(`SELECT DISTINCT s.task_id AS taskId, i.path AS path
      FROM feedback_items i JOIN feedback_serves s ON s.id = i.serve_id`)
    .all() as { taskId: string; path: string }[];
}
