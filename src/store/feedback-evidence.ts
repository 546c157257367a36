// The boost's evidence kept up to date at write time (feedback_evidence): one row per (document, heading, UTC
// day) with the day's judgment counts and weight sums (rank/judgment-buckets.ts), written in the transaction
// that stores, moves or drops the judgments. The sums depend on the half-life they were written with
// (index_meta `feedback_evidence_half_life_days`); a write under another half-life sums the table again from the
// judgments, and a search under another half-life reads the judgments instead (search-session.ts).
import { decayWeight } from '../rank/counted-judgments.js';
import { type BoostEvidence, type BoostTable, headingKey } from '../rank/feedback-boost.js';
import { DAY_MS, type DaySums, dayOf, dayStanding, daySumsAt, mergeDays } from '../rank/judgment-buckets.js';
import type { SqliteDatabase } from './open-database.js';

const HALF_LIFE_KEY = 'feedback_evidence_half_life_days';

export interface EvidenceItem {
  path: string;
  heading: string | null;
  verdict: 'helped' | 'noise' | 'wrong';
  alwaysServed: boolean;
}

interface StoredDay {
  helpedCount: number;
  negativeCount: number;
  helpedSum: number;
  negativeSum: number;
  firstAtMs: number;
  lastAtMs: number;
}

const DAY_COLUMNS = `helped_count AS helpedCount, negative_count AS negativeCount, helped_sum AS helpedSum,
  negative_sum AS negativeSum, first_at_ms AS firstAtMs, last_at_ms AS lastAtMs`;

/** The statements that read and write one (document, heading, day) row. */
function dayRows(db: SqliteDatabase) {
  const read = db.prepare(
    `SELECT ${DAY_COLUMNS} FROM feedback_evidence WHERE path = ? AND heading_key = ? AND day = ?`,
  );
  const write = db.prepare(`INSERT OR REPLACE INTO feedback_evidence(path, heading_key, day, helped_count,
    negative_count, helped_sum, negative_sum, first_at_ms, last_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  return {
    read: (path: string, key: string, day: number) => read.get(path, key, day) as StoredDay | undefined,
    write: (path: string, key: string, day: number, row: StoredDay) =>
      write.run(
        path,
        key,
        day,
        row.helpedCount,
        row.negativeCount,
        row.helpedSum,
        row.negativeSum,
        row.firstAtMs,
        row.lastAtMs,
      ),
  };
}

function sumsOf(row: StoredDay): DaySums {
  return { helped: row.helpedSum, negative: row.negativeSum, lastAtMs: row.lastAtMs };
}

function mergeStored(a: StoredDay | undefined, b: StoredDay, halfLifeDays: number): StoredDay {
  if (!a) return b;
  const sums = mergeDays(sumsOf(a), sumsOf(b), halfLifeDays);
  return {
    helpedCount: a.helpedCount + b.helpedCount,
    negativeCount: a.negativeCount + b.negativeCount,
    helpedSum: sums.helped,
    negativeSum: sums.negative,
    firstAtMs: Math.min(a.firstAtMs, b.firstAtMs),
    lastAtMs: sums.lastAtMs,
  };
}

/** Add one serve's counted items (always-served ones say nothing about ranking) to their days' rows. */
export function addServeEvidence(
  db: SqliteDatabase,
  serve: { recordedAt: string; items: readonly EvidenceItem[] },
  halfLifeDays: number,
): void {
  const atMs = Date.parse(serve.recordedAt);
  const day = dayOf(atMs);
  if (day === null) return;
  const rows = dayRows(db);
  for (const item of serve.items) {
    if (item.alwaysServed) continue;
    const helped = item.verdict === 'helped';
    const key = headingKey(item.heading);
    const own: StoredDay = {
      helpedCount: helped ? 1 : 0,
      negativeCount: helped ? 0 : 1,
      helpedSum: helped ? 1 : 0,
      negativeSum: helped ? 0 : 1,
      firstAtMs: atMs,
      lastAtMs: atMs,
    };
    rows.write(item.path, key, day, mergeStored(rows.read(item.path, key, day), own, halfLifeDays));
  }
}

/** The half-life the stored sums were written with, or null when there are none (an index from before them). */
export function evidenceHalfLife(db: SqliteDatabase): number | null {
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'feedback_evidence'")
    .get();
  if (table === undefined) return null;
  const value = db.prepare('SELECT value FROM index_meta WHERE key = ?').pluck().get(HALF_LIFE_KEY) as
    | string
    | undefined;
  return value === undefined ? null : Number(value);
}

/** Make the stored sums those of `halfLifeDays`: sum every judgment again when they are of another. */
export function ensureEvidenceFor(db: SqliteDatabase, halfLifeDays: number): void {
  if (evidenceHalfLife(db) === halfLifeDays) return;
  db.prepare('DELETE FROM feedback_evidence').run();
  const rows = db
    .prepare(`SELECT s.recorded_at AS recordedAt, i.path, i.heading, i.verdict FROM feedback_items i
      JOIN feedback_serves s ON s.id = i.serve_id WHERE i.always_served = 0`)
    .all() as ({ recordedAt: string } & Omit<EvidenceItem, 'alwaysServed'>)[];
  for (const row of rows) {
    addServeEvidence(
      db,
      { recordedAt: row.recordedAt, items: [{ ...row, alwaysServed: false }] },
      halfLifeDays,
    );
  }
  db.prepare(`INSERT INTO index_meta(key, value) VALUES (?, ?)
    ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(HALF_LIFE_KEY, String(halfLifeDays));
}

/** A renamed document's evidence moves with its judgments (merged into any the new path already has). */
export function moveEvidence(db: SqliteDatabase, fromPath: string, toPath: string): void {
  const halfLifeDays = evidenceHalfLife(db);
  if (halfLifeDays === null) return;
  const moving = db
    .prepare(`SELECT heading_key AS key, day, ${DAY_COLUMNS} FROM feedback_evidence WHERE path = ?`)
    .all(fromPath) as (StoredDay & { key: string; day: number })[];
  dropEvidence(db, fromPath);
  const rows = dayRows(db);
  for (const { key, day, ...row } of moving) {
    rows.write(toPath, key, day, mergeStored(rows.read(toPath, key, day), row, halfLifeDays));
  }
}

export function dropEvidence(db: SqliteDatabase, path: string): void {
  db.prepare('DELETE FROM feedback_evidence WHERE path = ?').run(path);
}

/** Copy the stored sums and their half-life from the attached `previous` database (a forced rebuild). */
export function copyEvidenceFromPrevious(into: SqliteDatabase): void {
  const has = into
    .prepare("SELECT 1 FROM previous.sqlite_master WHERE type = 'table' AND name = 'feedback_evidence'")
    .get();
  const halfLife = into
    .prepare('SELECT value FROM previous.index_meta WHERE key = ?')
    .pluck()
    .get(HALF_LIFE_KEY);
  if (has === undefined || halfLife === undefined) return;
  into.prepare('INSERT INTO main.feedback_evidence SELECT * FROM previous.feedback_evidence').run();
  into
    .prepare(`INSERT INTO main.index_meta(key, value) VALUES (?, ?)
    ON CONFLICT(key) DO UPDATE SET value = excluded.value`)
    .run(HALF_LIFE_KEY, halfLife);
}

interface EvidenceRow extends StoredDay {
  headingKey: string;
  day: number;
}

/**
 * The boost table read from the stored sums at `now`: a document's rows are read when a search first asks for
 * it. Equal to buildBoostTable over every judgment (up to rounding), without reading them.
 */
export function createStoredBoostTable(
  db: SqliteDatabase,
  options: { now: Date; halfLifeDays: number; horizonDays: number },
): BoostTable {
  const { now, halfLifeDays, horizonDays } = options;
  const rowsOf = db.prepare(
    `SELECT heading_key AS headingKey, day, ${DAY_COLUMNS} FROM feedback_evidence WHERE path = ?`,
  );
  const itemsOf = db.prepare(`SELECT i.heading, i.verdict, s.recorded_at AS recordedAt FROM feedback_items i
      JOIN feedback_serves s ON s.id = i.serve_id
      WHERE i.path = ? AND i.always_served = 0 AND s.recorded_at >= ? AND s.recorded_at < ?`);
  const byPath = new Map<string, Map<string, BoostEvidence>>();
  const evidenceOf = (path: string): Map<string, BoostEvidence> => {
    const cached = byPath.get(path);
    if (cached) return cached;
    const headings = new Map<string, BoostEvidence>();
    const add = (key: string, helped: number, negative: number, judgments: number) => {
      const evidence = headings.get(key) ?? { helped: 0, negative: 0, judgments: 0 };
      evidence.helped += helped;
      evidence.negative += negative;
      evidence.judgments += judgments;
      headings.set(key, evidence);
    };
    for (const row of rowsOf.all(path) as EvidenceRow[]) {
      const standing = dayStanding(row, now, horizonDays);
      if (standing === 'whole') {
        const weights = daySumsAt(sumsOf(row), now, halfLifeDays);
        add(row.headingKey, weights.helped, weights.negative, row.helpedCount + row.negativeCount);
      } else if (standing === 'itemized') {
        const from = new Date(row.day * DAY_MS).toISOString();
        const to = new Date((row.day + 1) * DAY_MS).toISOString();
        const items = itemsOf.all(path, from, to) as {
          heading: string | null;
          verdict: string;
          recordedAt: string;
        }[];
        for (const item of items) {
          if (headingKey(item.heading) !== row.headingKey) continue;
          const age = Math.max(0, (now.getTime() - Date.parse(item.recordedAt)) / DAY_MS);
          if (!(age <= horizonDays)) continue;
          const weight = decayWeight(age, halfLifeDays);
          add(
            row.headingKey,
            item.verdict === 'helped' ? weight : 0,
            item.verdict === 'helped' ? 0 : weight,
            1,
          );
        }
      }
    }
    byPath.set(path, headings);
    return headings;
  };
  const judgedDocuments = db
    .prepare('SELECT count(DISTINCT path) FROM feedback_evidence WHERE last_at_ms >= ?')
    .pluck();
  return {
    get documents() {
      return judgedDocuments.get(now.getTime() - horizonDays * DAY_MS) as number;
    },
    evidenceFor(path, heading) {
      const headings = evidenceOf(path);
      const whole = headings.get(headingKey(null));
      const own = heading === null ? undefined : headings.get(headingKey(heading));
      if (!whole && !own) return null;
      return {
        helped: (whole?.helped ?? 0) + (own?.helped ?? 0),
        negative: (whole?.negative ?? 0) + (own?.negative ?? 0),
        judgments: (whole?.judgments ?? 0) + (own?.judgments ?? 0),
      };
    },
  };
}
