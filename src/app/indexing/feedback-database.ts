// The feedback store bound to an index file (composition root): short-lived connections of their own, so a
// judgment is never written inside eval's read transaction on the search session, and the copy that carries
// judgments into a forced rebuild's new file. Every feedback connection and every rebuild swap hold the
// index's feedback gate (`<db>.gate`, any process): a connection never spans a rename of the index, so a
// judgment is either in the live file before the rebuild copies it or written to the new file after the swap.
import fs from 'node:fs';
import {
  copyFeedbackFrom,
  countJudgedItems,
  createIndexedEntryCheck,
  type FeedbackServeInput,
  insertFeedbackServe,
  readFeedbackServes,
  type StoredFeedbackServe,
} from '../../store/feedback-store.js';
import { gatePathFor, withFileGate } from '../../store/file-gate.js';
import { IndexDatabase } from './index-database.js';

export interface FeedbackDatabase {
  /** Store one serve; the boost's stored sums are kept for `halfLifeDays` ([search.boost] half_life_days). */
  insert(serve: FeedbackServeInput, halfLifeDays: number): number;
  /** Judged items stored now. */
  storedJudgments(): number;
  readServes(): StoredFeedbackServe[];
  isIndexed(path: string, heading: string | null): boolean;
  counts(): { documents: number; chunks: number };
}

/**
 * Hold the feedback gate of the index at `dbPath` while `work` runs: feedback connections and the rebuild swap
 * (copy the judgments into the new file, rename it over the live one) take turns, across processes.
 */
export function withFeedbackGate<T>(dbPath: string, work: () => T | Promise<T>): Promise<T> {
  return withFileGate(gatePathFor(dbPath), work, { guards: `the feedback of index "${dbPath}"` });
}

/** Under the feedback gate: open the index (never creating it), hand `work` the feedback operations, close. */
export function withFeedbackDatabase<T>(dbPath: string, work: (database: FeedbackDatabase) => T): Promise<T> {
  return withFeedbackGate(dbPath, () => openedFeedbackDatabase(dbPath, work));
}

function openedFeedbackDatabase<T>(dbPath: string, work: (database: FeedbackDatabase) => T): T {
  const database = IndexDatabase.open(dbPath, { create: false });
  try {
    const isIndexed = createIndexedEntryCheck(database.db);
    return work({
      insert: (serve, halfLifeDays) => insertFeedbackServe(database.db, serve, halfLifeDays),
      storedJudgments: () => countJudgedItems(database.db),
      readServes: () => readFeedbackServes(database.db),
      isIndexed,
      counts: () => {
        const { documents, chunks } = database.counts();
        return { documents, chunks };
      },
    });
  } finally {
    database.close();
  }
}

/**
 * Copy the judgments of the live index into a finished rebuild before it is swapped in: they are not derived
 * from the files, so a rebuild could never recreate them. Nothing to copy when there is no live index yet.
 * Call it under the feedback gate, and rename under the same hold, so no judgment lands in between.
 */
export function carryFeedbackInto(rebuiltPath: string, livePath: string): { serves: number; items: number } {
  if (!fs.existsSync(livePath)) return { serves: 0, items: 0 };
  const rebuilt = IndexDatabase.open(rebuiltPath, { create: false });
  try {
    return copyFeedbackFrom(rebuilt.db, livePath);
  } finally {
    rebuilt.close();
  }
}
