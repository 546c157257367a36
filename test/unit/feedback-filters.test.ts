// The four golden-set filters over recorded judgments: each one fires on the case it exists for, counts what
// it removed, and leaves clean input alone.
import { describe, expect, it } from 'vitest';
import { filterFeedback } from '../../src/measure/feedback-filters.js';
import type { FeedbackItem, FeedbackServe } from '../../src/types.js';

const item = (
  path: string,
  verdict: FeedbackItem['verdict'],
  extra: Partial<FeedbackItem> = {},
): FeedbackItem => ({
  path,
  heading: null,
  verdict,
  alwaysServed: false,
  ...extra,
});
const serve = (
  serveId: number,
  taskId: string,
  items: FeedbackItem[],
  query = `query of ${taskId}`,
): FeedbackServe => ({
  serveId,
  taskId,
  query,
  items,
});
const everythingIndexed = () => true;

describe('filterFeedback', () => {
  it('keeps clean judgments untouched: every filter removes nothing', () => {
    const draft = filterFeedback(
      [
        serve(1, 'a', [item('x.md', 'helped'), item('y.md', 'noise')]),
        serve(2, 'b', [item('z.md', 'helped')]),
      ],
      everythingIndexed,
    );
    expect(draft.input).toEqual({ queries: 2, items: 3, tasks: 2 });
    expect(draft.steps.map((s) => [s.filter, s.queriesRemoved, s.itemsRemoved])).toEqual([
      ['always-served', 0, 0],
      ['no-positive', 0, 0],
      ['positive-not-indexed', 0, 0],
      ['repeated-task', 0, 0],
    ]);
    expect(draft.queries).toEqual([
      { id: 'a', query: 'query of a', expected: [{ path: 'x.md', heading: null }] },
      { id: 'b', query: 'query of b', expected: [{ path: 'z.md', heading: null }] },
    ]);
    expect(draft.negativesKept).toBe(1);
  });

  it('1. drops always-served items even when they helped, and the query they alone carried', () => {
    const draft = filterFeedback(
      [
        serve(1, 'a', [item('rules.md', 'helped', { alwaysServed: true }), item('x.md', 'helped')]),
        serve(2, 'b', [item('rules.md', 'helped', { alwaysServed: true }), item('y.md', 'noise')]),
      ],
      everythingIndexed,
    );
    expect(draft.steps[0]).toEqual({ filter: 'always-served', queriesRemoved: 0, itemsRemoved: 2 });
    // b is left with noise only, so the second filter takes it.
    expect(draft.steps[1]).toEqual({ filter: 'no-positive', queriesRemoved: 1, itemsRemoved: 1 });
    expect(draft.queries.map((q) => q.id)).toEqual(['a']);
    expect(draft.queries[0]!.expected).toEqual([{ path: 'x.md', heading: null }]);
  });

  it('2. drops a serve where everything was noise or wrong', () => {
    const draft = filterFeedback(
      [
        serve(1, 'a', [item('x.md', 'noise'), item('y.md', 'wrong')]),
        serve(2, 'b', [item('z.md', 'helped')]),
      ],
      everythingIndexed,
    );
    expect(draft.steps[1]).toEqual({ filter: 'no-positive', queriesRemoved: 1, itemsRemoved: 2 });
    expect(draft.queries.map((q) => q.id)).toEqual(['b']);
  });

  it('3. drops positives no longer indexed (path, or path + heading), then serves left without one', () => {
    const indexed = (path: string, heading: string | null) =>
      path === 'kept.md' && (heading === null || heading === 'Still here');
    const draft = filterFeedback(
      [
        serve(1, 'a', [item('kept.md', 'helped'), item('retired.md', 'helped'), item('n.md', 'noise')]),
        serve(2, 'b', [item('retired.md', 'helped'), item('n.md', 'noise')]),
        serve(3, 'c', [item('kept.md', 'helped', { heading: 'Renamed away' })]),
        serve(4, 'd', [item('kept.md', 'helped', { heading: 'Still here' })]),
      ],
      indexed,
    );
    // Items: retired.md twice + the vanished heading = 3, plus b's leftover noise item = 4; queries b and c.
    expect(draft.steps[2]).toEqual({ filter: 'positive-not-indexed', queriesRemoved: 2, itemsRemoved: 4 });
    expect(draft.queries.map((q) => q.id)).toEqual(['a', 'd']);
    expect(draft.queries[1]!.expected).toEqual([{ path: 'kept.md', heading: 'Still here' }]);
  });

  it('4. counts a task repeated across sessions once, keeping its latest surviving serve', () => {
    const draft = filterFeedback(
      [
        serve(1, 'a', [item('old.md', 'helped')], 'first wording'),
        serve(2, 'b', [item('b.md', 'helped')]),
        serve(3, 'a', [item('new.md', 'helped'), item('n.md', 'noise')], 'second wording'),
        // The latest serve of a had no positive: the filter keeps the latest one that survived the others.
        serve(4, 'a', [item('n.md', 'noise')], 'third wording'),
      ],
      everythingIndexed,
    );
    expect(draft.input.tasks).toBe(2);
    expect(draft.steps[3]).toEqual({ filter: 'repeated-task', queriesRemoved: 1, itemsRemoved: 1 });
    expect(draft.queries).toEqual([
      { id: 'b', query: 'query of b', expected: [{ path: 'b.md', heading: null }] },
      { id: 'a', query: 'second wording', expected: [{ path: 'new.md', heading: null }] },
    ]);
  });

  it('lists each positive once per query (heading compared trimmed and case-insensitively)', () => {
    const draft = filterFeedback(
      [
        serve(1, 'a', [
          item('x.md', 'helped', { heading: 'Setup' }),
          item('x.md', 'helped', { heading: ' setup ' }),
          item('x.md', 'helped'),
        ]),
      ],
      everythingIndexed,
    );
    expect(draft.queries[0]!.expected).toEqual([
      { path: 'x.md', heading: 'Setup' },
      { path: 'x.md', heading: null },
    ]);
  });

  it('accounts for every item: removed + kept = input', () => {
    const serves = [
      serve(1, 'a', [
        item('r.md', 'helped', { alwaysServed: true }),
        item('x.md', 'helped'),
        item('n.md', 'noise'),
      ]),
      serve(2, 'a', [item('x.md', 'helped')]),
      serve(3, 'b', [item('gone.md', 'helped'), item('n.md', 'wrong')]),
      serve(4, 'c', [item('n.md', 'noise')]),
    ];
    const draft = filterFeedback(serves, (p) => p !== 'gone.md');
    const removed = draft.steps.reduce((sum, s) => sum + s.itemsRemoved, 0);
    const kept = draft.queries.reduce((sum, q) => sum + q.expected.length, 0) + draft.negativesKept;
    expect(removed + kept).toBe(draft.input.items);
    const removedQueries = draft.steps.reduce((sum, s) => sum + s.queriesRemoved, 0);
    expect(removedQueries + draft.queries.length).toBe(draft.input.queries);
  });
});
