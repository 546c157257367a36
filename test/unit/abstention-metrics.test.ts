import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AbstentionCase,
  abstentionCases,
  computeAbstention,
  confidenceAuc,
  wilsonInterval,
} from '../../src/measure/abstention-metrics.js';
import { aggregateMetrics, computeQueryMetrics } from '../../src/measure/eval-metrics.js';

const answerable = (confidence: number, abstained: boolean): AbstentionCase => ({
  answerable: true,
  confidence,
  abstained,
});
const negative = (confidence: number, abstained: boolean): AbstentionCase => ({
  answerable: false,
  confidence,
  abstained,
});

describe('wilsonInterval', () => {
  it('matches the textbook 95% Wilson intervals', () => {
    // 5/10: centre 0.5, half-width 0.2634; 0/10: [0, 0.2775]; 10/10: [0.7225, 1].
    const half = wilsonInterval(5, 10);
    expect(half.value).toBe(0.5);
    expect(half.low).toBeCloseTo(0.2366, 4);
    expect(half.high).toBeCloseTo(0.7634, 4);
    expect(wilsonInterval(0, 10).low).toBe(0);
    expect(wilsonInterval(0, 10).high).toBeCloseTo(0.2775, 4);
    expect(wilsonInterval(10, 10).low).toBeCloseTo(0.7225, 4);
    expect(wilsonInterval(10, 10).high).toBe(1);
  });

  it('has no value when nothing was counted', () => {
    expect(wilsonInterval(0, 0)).toEqual({ count: 0, of: 0, value: null, low: null, high: null });
  });
});

describe('computeAbstention', () => {
  it('counts precision, recall and the false-abstain rate by hand', () => {
    // 4 answerable (1 abstained), 3 negatives (2 abstained): 3 abstained, 2 of them negative.
    const cases = [
      answerable(0.9, false),
      answerable(0.8, false),
      answerable(0.6, false),
      answerable(0.2, true),
      negative(0.1, true),
      negative(0.25, true),
      negative(0.7, false),
    ];
    const metrics = computeAbstention(cases, 0.3)!;
    expect(metrics.threshold).toBe(0.3);
    expect([metrics.answerable, metrics.negatives]).toEqual([4, 3]);
    expect(metrics.precision).toMatchObject({ count: 2, of: 3, value: 2 / 3 });
    expect(metrics.recall).toMatchObject({ count: 2, of: 3, value: 2 / 3 });
    expect(metrics.falseAbstain).toMatchObject({ count: 1, of: 4, value: 1 / 4 });
    // Pairs (answerable above negative): 0.9, 0.8 beat all 3; 0.6 beats 2; 0.2 beats 1 → 9 of 12.
    expect(metrics.auc).toBeCloseTo(9 / 12, 12);
  });

  it('is null without negative queries; precision has no value when nothing abstained', () => {
    expect(computeAbstention([answerable(0.5, false)], 0.3)).toBeNull();
    const none = computeAbstention([answerable(0.9, false), negative(0.8, false)], 0.3)!;
    expect(none.precision.value).toBeNull();
    expect(none.recall).toMatchObject({ count: 0, of: 1, value: 0 });
  });

  it('counts a tie between an answerable and a negative query as half', () => {
    expect(confidenceAuc([answerable(0.4, false), negative(0.4, false)])).toBe(0.5);
    expect(confidenceAuc([answerable(0.4, false)])).toBeNull();
  });

  it('agrees with a naive recount on any set of queries', () => {
    const caseArb = fc.record({
      answerable: fc.boolean(),
      confidence: fc.integer({ min: 0, max: 20 }).map((n) => n / 20),
      abstained: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(caseArb, { maxLength: 60 }), (cases) => {
        const metrics = computeAbstention(cases, 0.5);
        const negatives = cases.filter((c) => !c.answerable);
        if (negatives.length === 0) return metrics === null;
        const positives = cases.filter((c) => c.answerable);
        let abstained = 0;
        let negativesAbstained = 0;
        let falseAbstained = 0;
        for (const c of cases) {
          if (!c.abstained) continue;
          abstained++;
          if (c.answerable) falseAbstained++;
          else negativesAbstained++;
        }
        let wins = 0;
        for (const p of positives) {
          for (const n of negatives)
            wins += p.confidence > n.confidence ? 1 : p.confidence === n.confidence ? 0.5 : 0;
        }
        const auc = positives.length === 0 ? null : wins / (positives.length * negatives.length);
        expect(metrics!.precision.value).toBe(abstained === 0 ? null : negativesAbstained / abstained);
        expect(metrics!.recall.value).toBe(negativesAbstained / negatives.length);
        expect(metrics!.falseAbstain.value).toBe(
          positives.length === 0 ? null : falseAbstained / positives.length,
        );
        if (auc === null) expect(metrics!.auc).toBeNull();
        else expect(metrics!.auc).toBeCloseTo(auc, 10);
        for (const rate of [metrics!.precision, metrics!.recall, metrics!.falseAbstain]) {
          if (rate.value === null) continue;
          expect(rate.low!).toBeLessThanOrEqual(rate.value + 1e-12);
          expect(rate.high!).toBeGreaterThanOrEqual(rate.value - 1e-12);
        }
        return true;
      }),
    );
  });
});

describe('negative queries and the ranking metrics', () => {
  it('never enter recall, MRR or nDCG, and abstention reads them from the measured queries', () => {
    const hits = [{ rank: 1, path: 'a.md', heading: null, score: 1 }];
    const positive = {
      expected: [{ path: 'a.md', heading: null }],
      metrics: computeQueryMetrics([{ path: 'a.md', heading: null }], hits, [1]),
    };
    const negativeQuery = { expected: [], metrics: computeQueryMetrics([], hits, [1]) };
    const alone = aggregateMetrics([positive], [1]);
    expect(aggregateMetrics([positive, negativeQuery, negativeQuery], [1])).toEqual(alone);
    expect(alone.queryCount).toBe(1);
    const cases = abstentionCases([
      { ...positive, confidence: { value: 0.9, abstained: false } },
      { ...negativeQuery, confidence: { value: 0.1, abstained: true } },
      { ...negativeQuery },
    ]);
    expect(cases).toEqual([answerable(0.9, false), negative(0.1, true)]);
  });
});
