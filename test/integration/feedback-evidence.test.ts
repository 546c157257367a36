// The boost's stored sums (feedback_evidence) against an oracle: buildBoostTable over every judgment read back
// from the tables, for many clocks (inside the horizon, a day straddling its edge, a clock moved back), after
// renames onto new and already-judged paths, removals, a forced rebuild's copy, and a write under another
// half-life. Real SQLite files; judgments with random times, paths, headings and verdicts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countJudgments } from '../../src/rank/counted-judgments.js';
import { type BoostEvidence, buildBoostTable } from '../../src/rank/feedback-boost.js';
import { createStoredBoostTable } from '../../src/store/feedback-evidence.js';
import {
  copyFeedbackFrom,
  dropJudgments,
  insertFeedbackServe,
  moveJudgments,
  readFeedbackServes,
  type StoredFeedbackItem,
} from '../../src/store/feedback-store.js';
import { openDatabase, type SqliteDatabase } from '../../src/store/open-database.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const PATHS = ['a.md', 'b.md', 'c/d.md', 'e.md', 'f.md'];
const HEADINGS = [null, 'Intro', ' intro ', 'Setup', 'Deep Dive'];
const VERDICTS = ['helped', 'noise', 'wrong'] as const;

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-evidence-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A small deterministic generator, so a failure names a reproducible case. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function fillJudgments(db: SqliteDatabase, seed: number, serves: number, halfLifeDays: number): void {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  for (let s = 0; s < serves; s++) {
    const at = new Date(T0 + Math.floor(next() * 60 * DAY)).toISOString();
    const items: StoredFeedbackItem[] = Array.from({ length: 1 + Math.floor(next() * 6) }, () => ({
      path: pick(PATHS),
      heading: pick(HEADINGS)?.trim() || null,
      verdict: pick(VERDICTS),
      alwaysServed: next() < 0.1,
    }));
    insertFeedbackServe(db, { recordedAt: at, taskId: `task-${s % 17}`, query: 'q', items }, halfLifeDays);
  }
}

/** Every (path, heading) a chunk could ask about, stored against a count from the judgments themselves. */
function expectSumsEqualOracle(
  db: SqliteDatabase,
  now: Date,
  window: { halfLifeDays: number; horizonDays: number },
) {
  const oracle = buildBoostTable(countJudgments(readFeedbackServes(db), now, window).judgments);
  const stored = createStoredBoostTable(db, { now, ...window });
  const paths = [...PATHS, 'renamed.md', 'never-judged.md'];
  let compared = 0;
  for (const p of paths) {
    for (const heading of [...HEADINGS, 'Unjudged heading']) {
      const want = oracle.evidenceFor(p, heading);
      const got = stored.evidenceFor(p, heading);
      if (want === null) {
        expect(got, `${p} / ${heading}`).toBeNull();
        continue;
      }
      expect(got, `${p} / ${heading}`).not.toBeNull();
      expectClose(got!, want, `${p} / ${heading} at ${now.toISOString()}`);
      compared++;
    }
  }
  expect(stored.documents).toBe(oracle.documents);
  return compared;
}

function expectClose(got: BoostEvidence, want: BoostEvidence, label: string): void {
  expect(got.judgments, label).toBe(want.judgments);
  expect(Math.abs(got.helped - want.helped), label).toBeLessThanOrEqual(1e-9 * Math.max(1, want.helped));
  expect(Math.abs(got.negative - want.negative), label).toBeLessThanOrEqual(
    1e-9 * Math.max(1, want.negative),
  );
}

function clocks(): Date[] {
  return [
    new Date(T0 + 61 * DAY), // every judgment in the past, all inside the horizon
    new Date(T0 + 30 * DAY + 7_200_000), // half of them in the future: a clock moved back
    new Date(T0 + 40.5 * DAY), // 30-day horizon: its edge falls mid-day
    new Date(T0 + 100 * DAY), // most past the horizon, one straddling day
    new Date(T0 + 400 * DAY), // every judgment past the horizon
  ];
}

describe('the stored boost sums', () => {
  it('equal a count from the judgments, for every clock, after renames, removals, a rebuild copy and a new half-life', () => {
    const db = openDatabase(path.join(root, 'oracle.db'), { create: true });
    const window = { halfLifeDays: 7, horizonDays: 30 };
    fillJudgments(db, 1, 400, window.halfLifeDays);
    let compared = 0;
    for (const now of clocks()) compared += expectSumsEqualOracle(db, now, window);
    expect(compared).toBeGreaterThan(40);

    // A rename onto a fresh path, a rename onto a path already judged (its days merge), a removal.
    db.transaction(() => {
      moveJudgments(db, 'a.md', 'renamed.md');
      moveJudgments(db, 'b.md', 'c/d.md');
      dropJudgments(db, 'e.md');
    })();
    for (const now of clocks()) expectSumsEqualOracle(db, now, window);
    expect(createStoredBoostTable(db, { now: clocks()[0]!, ...window }).evidenceFor('e.md', null)).toBeNull();

    // More judgments after the moves, then a forced rebuild's copy into a new file.
    fillJudgments(db, 2, 100, window.halfLifeDays);
    const rebuilt = openDatabase(path.join(root, 'rebuilt.db'), { create: true });
    db.pragma('wal_checkpoint(TRUNCATE)');
    copyFeedbackFrom(rebuilt, path.join(root, 'oracle.db'));
    for (const now of clocks()) expectSumsEqualOracle(rebuilt, now, window);

    // A record under another half-life sums every stored judgment again for it.
    const other = { halfLifeDays: 2.5, horizonDays: 30 };
    fillJudgments(rebuilt, 3, 1, other.halfLifeDays);
    for (const now of clocks()) expectSumsEqualOracle(rebuilt, now, other);
    db.close();
    rebuilt.close();
  });

  it('gives exactly the judgments’ own weights for judgments recorded at one instant', () => {
    const db = openDatabase(path.join(root, 'instant.db'), { create: true });
    const at = new Date(T0).toISOString();
    const items: StoredFeedbackItem[] = [1, 2, 3].map(() => ({
      path: 'a.md',
      heading: null,
      verdict: 'helped',
      alwaysServed: false,
    }));
    insertFeedbackServe(db, { recordedAt: at, taskId: 't', query: 'q', items }, 90);
    const stored = createStoredBoostTable(db, { now: new Date(T0), halfLifeDays: 90, horizonDays: 365 });
    expect(stored.evidenceFor('a.md', 'Any heading')).toEqual({ helped: 3, negative: 0, judgments: 3 });
    db.close();
  });
});
