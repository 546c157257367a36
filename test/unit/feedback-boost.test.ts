// The boost as pure arithmetic over judgments: the smoothing and the judgment floor, the time window (decay,
// horizon, always-served items), heading-level evidence, and the documented bound on how far it can reorder —
// checked as a property over random rankings and random judgments.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyBoost, type RankedEntry } from '../../src/app/search/learned-stages.js';
import { countJudgments, decayWeight, type JudgedServe } from '../../src/rank/counted-judgments.js';
import {
  type BoostParams,
  boostOf,
  buildBoostTable,
  helpfulnessOf,
  maxBoost,
} from '../../src/rank/feedback-boost.js';
import { learnSignals } from '../../src/rank/learned-signals.js';
import type { ChunkKey } from '../../src/store/chunk-search.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();
const window = { halfLifeDays: 30, horizonDays: 365 };
const params: BoostParams = { strength: 0.5, halfLifeDays: 30, minJudgments: 1, horizonDays: 365 };

type Verdict = 'helped' | 'noise' | 'wrong';
const serve = (
  serveId: number,
  items: { path: string; verdict: Verdict; heading?: string; alwaysServed?: boolean }[],
  options: { taskId?: string; recordedAt?: string } = {},
): JudgedServe => ({
  serveId,
  taskId: options.taskId ?? `task-${serveId}`,
  query: `query ${serveId}`,
  recordedAt: options.recordedAt ?? NOW.toISOString(),
  items: items.map((i) => ({
    path: i.path,
    heading: i.heading ?? null,
    verdict: i.verdict,
    alwaysServed: i.alwaysServed ?? false,
  })),
});

const tableOf = (serves: JudgedServe[]) => buildBoostTable(countJudgments(serves, NOW, window).judgments);

describe('judgments that count', () => {
  it('halve every half-life, stop at the horizon, and never include always-served items', () => {
    expect(decayWeight(0, 30)).toBe(1);
    expect(decayWeight(30, 30)).toBeCloseTo(0.5, 12);
    expect(decayWeight(90, 30)).toBeCloseTo(0.125, 12);
    const { judgments, counts } = countJudgments(
      [
        serve(1, [{ path: 'a.md', verdict: 'helped' }], { recordedAt: daysAgo(30) }),
        serve(2, [{ path: 'a.md', verdict: 'helped' }], { recordedAt: daysAgo(366) }),
        serve(3, [{ path: 'rules.md', verdict: 'helped', alwaysServed: true }]),
        serve(4, [{ path: 'b.md', verdict: 'noise' }], { recordedAt: 'not a time' }),
        // A clock moved back: a judgment "from the future" counts as fresh, not as heavier than fresh.
        serve(5, [{ path: 'c.md', verdict: 'helped' }], { recordedAt: daysAgo(-3) }),
      ],
      NOW,
      window,
    );
    expect(judgments.map((j) => [j.path, j.weight])).toEqual([
      ['a.md', expect.closeTo(0.5, 12)],
      ['c.md', 1],
    ]);
    expect(counts).toEqual({ serves: 5, items: 5, counted: 2, alwaysServed: 1, pastHorizon: 2 });
  });
});

describe('boostOf', () => {
  it('smooths with one pseudo-vote each way: one fresh helped vote gives a third of the bound', () => {
    const table = tableOf([serve(1, [{ path: 'a.md', verdict: 'helped' }])]);
    const evidence = table.evidenceFor('a.md', null)!;
    expect(evidence).toEqual({ helped: 1, negative: 0, judgments: 1 });
    expect(helpfulnessOf(evidence)).toBeCloseTo(1 / 3, 12);
    expect(boostOf(evidence, params, 60)).toBeCloseTo(0.5 * (1 / 3) * (1 / 61 - 1 / 62), 15);
    expect(table.evidenceFor('unjudged.md', null)).toBeNull();
    expect(boostOf(null, params, 60)).toBe(0);
  });

  it('lowers noise and wrong alike, and gives nothing below the judgment floor', () => {
    const table = tableOf([
      serve(1, [
        { path: 'bad.md', verdict: 'noise' },
        { path: 'worse.md', verdict: 'wrong' },
      ]),
      serve(2, [{ path: 'bad.md', verdict: 'wrong' }]),
    ]);
    const bad = table.evidenceFor('bad.md', null)!;
    expect(boostOf(bad, params, 60)).toBeCloseTo(0.5 * (-2 / 4) * (1 / 61 - 1 / 62), 15);
    expect(boostOf(table.evidenceFor('worse.md', null), params, 60)).toBeLessThan(0);
    expect(boostOf(bad, { ...params, minJudgments: 3 }, 60)).toBe(0);
    expect(boostOf(bad, { ...params, minJudgments: 2 }, 60)).not.toBe(0);
  });

  it('applies a heading judgment to that section only, and a whole-document judgment to every section', () => {
    const table = tableOf([
      serve(1, [{ path: 'a.md', heading: ' Setup ', verdict: 'helped' }]),
      serve(2, [{ path: 'a.md', verdict: 'noise' }]),
    ]);
    expect(table.evidenceFor('a.md', 'setup')).toEqual({ helped: 1, negative: 1, judgments: 2 });
    expect(table.evidenceFor('a.md', 'Other')).toEqual({ helped: 0, negative: 1, judgments: 1 });
    expect(table.evidenceFor('a.md', null)).toEqual({ helped: 0, negative: 1, judgments: 1 });
    const onlyHeading = tableOf([serve(1, [{ path: 'b.md', heading: 'Setup', verdict: 'helped' }])]);
    expect(onlyHeading.evidenceFor('b.md', 'Other')).toBeNull();
  });

  it('stays strictly inside ±strength × (1/(rrf_k + 1) − 1/(rrf_k + 2)) however many votes agree', () => {
    fc.assert(
      fc.property(
        fc.nat(500),
        fc.nat(500),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 1, max: 1e6, noNaN: true }),
        (helped, negative, strength, rrfK) => {
          const evidence = { helped, negative, judgments: helped + negative };
          const p = { strength, minJudgments: 1 };
          expect(Math.abs(boostOf(evidence, p, rrfK))).toBeLessThanOrEqual(maxBoost(p, rrfK));
          if (strength > 1e-9 && helped + negative > 0)
            expect(Math.abs(boostOf(evidence, p, rrfK))).toBeLessThan(maxBoost(p, rrfK));
        },
      ),
    );
  });
});

describe('applyBoost reorders only within its bound', () => {
  const entry = (id: number, score: number): RankedEntry => ({
    id,
    score,
    explain: { rrfScore: score, ranks: { lexical: id }, lexicalSource: 'words' },
  });
  const keyOf = (id: number): ChunkKey => ({ id, documentId: id, path: `d${id}.md`, heading: null });

  it('keeps every pair whose fused scores differ by 2 × strength × top rank gap or more in order', () => {
    const verdicts = fc.constantFrom<Verdict>('helped', 'noise', 'wrong');
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 2, maxLength: 12 }),
        fc.array(fc.record({ doc: fc.nat(11), verdict: verdicts }), { maxLength: 300 }),
        fc.double({ min: 0, max: 20, noNaN: true }),
        (legRanks, votes, strength) => {
          const k = 60;
          // Scores of a one-leg RRF list with random gaps (ids 1..n), best first.
          const ranks = [...new Set(legRanks)].sort((a, b) => a - b);
          const ranked = ranks.map((rank, i) => entry(i + 1, 1 / (k + rank)));
          const serves = votes.map((v, i) =>
            serve(i + 1, [{ path: `d${v.doc + 1}.md`, verdict: v.verdict }]),
          );
          const learned = learnSignals(serves, { now: NOW, window });
          const keys = new Map(ranked.map((r) => [r.id, keyOf(r.id)]));
          const out = applyBoost(ranked, keys, learned, { params: { ...params, strength }, rrfK: k });
          const position = new Map(out.map((r, i) => [r.id, i]));
          const bound = 2 * maxBoost({ strength }, k);
          for (const a of ranked) {
            for (const b of ranked) {
              if (a.id === b.id) continue;
              const fusedGap = a.explain.rrfScore - b.explain.rrfScore;
              if (fusedGap >= bound) expect(position.get(a.id)!).toBeLessThan(position.get(b.id)!);
            }
          }
          // The explained parts add up to each score.
          for (const r of out) expect(r.score).toBe(r.explain.rrfScore + (r.explain.boost ?? 0));
        },
      ),
    );
  });

  it('is tight: near-unanimous votes invert a pair just inside the bound, never one at it', () => {
    const k = 60;
    const strength = 3;
    const votes = (path: string, verdict: Verdict) =>
      Array.from({ length: 200 }, (_, i) => serve(i + 1, [{ path, verdict }], { taskId: `${path}-${i}` }));
    const learned = learnSignals([...votes('d1.md', 'noise'), ...votes('d2.md', 'helped')], {
      now: NOW,
      window,
    });
    const bound = 2 * maxBoost({ strength }, k);
    const order = (gap: number) => {
      const ranked = [entry(1, 0.02 + gap), entry(2, 0.02)];
      const keys = new Map(ranked.map((r) => [r.id, keyOf(r.id)]));
      return applyBoost(ranked, keys, learned, { params: { ...params, strength }, rrfK: k }).map((r) => r.id);
    };
    expect(order(0.97 * bound)).toEqual([2, 1]);
    expect(order(bound)).toEqual([1, 2]);
  });

  it('changes neither the order nor a score without judgments', () => {
    const ranked = [entry(3, 0.03), entry(1, 0.02), entry(2, 0.02)];
    const keys = new Map(ranked.map((r) => [r.id, keyOf(r.id)]));
    const learned = learnSignals([], { now: NOW, window });
    const out = applyBoost(ranked, keys, learned, { params, rrfK: 60 });
    expect(out.map((r) => [r.id, r.score])).toEqual(ranked.map((r) => [r.id, r.score]));
  });
});
