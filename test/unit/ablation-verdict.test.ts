// Stage ablation's verdict: only a paired interval of a gated metric that excludes 0 decides, and its side
// says whether the stage helps (worse without it) or hurts (better without it).
import { describe, expect, it } from 'vitest';
import { judgeAblation } from '../../src/measure/ablation-verdict.js';
import type { PairedRunComparison } from '../../src/measure/eval-paired.js';
import { comparePaired } from '../../src/measure/paired-ci.js';

/** A pairing (without the stage − full) whose metrics have these per-query differences. */
function pairing(diffs: Record<string, number[]>): PairedRunComparison {
  return {
    against: '2026-01-01T00:00:00+00:00',
    sharedQueries: 8,
    confidence: 0.95,
    power: 0.8,
    metrics: Object.entries(diffs).map(([metric, values]) => ({ metric, ...comparePaired(values) })),
  };
}

const BELOW = [-1, -1, -1, -1, 0, -1, -1, -1];
const ABOVE = BELOW.map((d) => -d);
const AROUND = [-1, 1, -1, 1, 0, -1, 1, 0];

describe('judgeAblation', () => {
  it('a stage helps when a gated metric falls without it (interval wholly below 0) and none rises', () => {
    expect(judgeAblation(pairing({ 'recall@5': BELOW, MRR: AROUND, 'nDCG@5': BELOW }))).toEqual({
      verdict: 'helps',
      helpsOn: ['recall@5', 'nDCG@5'],
      hurtsOn: [],
    });
  });

  it('a stage hurts when a gated metric rises without it and none falls', () => {
    expect(judgeAblation(pairing({ 'recall@5': AROUND, MRR: ABOVE }))).toEqual({
      verdict: 'hurts',
      helpsOn: [],
      hurtsOn: ['MRR'],
    });
  });

  it('mixed when one gated metric falls and another rises', () => {
    expect(judgeAblation(pairing({ 'recall@10': ABOVE, 'nDCG@10': BELOW })).verdict).toBe('mixed');
  });

  it('no measurable effect when every interval holds 0, however far the mean moved', () => {
    const wide = [-1, -1, -1, 1, -1, 0, -1, 0];
    const judged = judgeAblation(pairing({ 'recall@5': wide, MRR: AROUND }));
    expect(comparePaired(wide).meanDiff).toBeLessThan(-0.3);
    expect(judged).toEqual({ verdict: 'no-measurable-effect', helpsOn: [], hurtsOn: [] });
  });

  it('the metrics the gates ignore (P@k, MAP@k, hit@k, R-precision) never decide', () => {
    const judged = judgeAblation(
      pairing({ 'P@5': BELOW, 'MAP@5': ABOVE, 'hit@5': BELOW, 'R-precision': BELOW, MRR: AROUND }),
    );
    expect(judged.verdict).toBe('no-measurable-effect');
  });

  it('a single shared query decides nothing (its interval is unbounded)', () => {
    expect(judgeAblation(pairing({ MRR: [-1] })).verdict).toBe('no-measurable-effect');
  });
});
