// The graph hop's pure rules: co-helpful edges from judgments (formula, decay, always-served and non-helped
// items ignored), which neighbours a hop pulls in and with what score, the per-hit cap, several hops, and the
// honest filter that leaves a golden query's own serves out.
import { describe, expect, it } from 'vitest';
import { buildCoHelpfulEdges } from '../../src/rank/co-helpful-edges.js';
import { countJudgments, type JudgedServe } from '../../src/rank/counted-judgments.js';
import { type GraphEdge, type HopParent, planGraphHop } from '../../src/rank/graph-hop.js';
import { normalizeQueryText, withoutOwnServes } from '../../src/rank/learned-signals.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const window = { halfLifeDays: 10, horizonDays: 100 };
const serve = (
  serveId: number,
  taskId: string,
  helped: string[],
  extra: { recordedAt?: string; query?: string; noise?: string[]; always?: string[] } = {},
): JudgedServe => ({
  serveId,
  taskId,
  query: extra.query ?? `query of ${taskId}`,
  recordedAt: extra.recordedAt ?? NOW.toISOString(),
  items: [
    ...helped.map((path) => ({ path, heading: null, verdict: 'helped' as const, alwaysServed: false })),
    ...(extra.noise ?? []).map((path) => ({
      path,
      heading: null,
      verdict: 'noise' as const,
      alwaysServed: false,
    })),
    ...(extra.always ?? []).map((path) => ({
      path,
      heading: null,
      verdict: 'helped' as const,
      alwaysServed: true,
    })),
  ],
});
const edgesOf = (serves: JudgedServe[]) => buildCoHelpfulEdges(countJudgments(serves, NOW, window).judgments);
const sorted = (edges: GraphEdge[]) =>
  edges
    .map((e) => [e.source, e.target, Number(e.weight.toFixed(6))])
    .sort((a, b) => String(a).localeCompare(String(b)));

describe('co-helpful edges', () => {
  it('pair the documents helped in one task, weigh C / (C + 0.1), and ignore noise and always-served items', () => {
    const edges = edgesOf([
      serve(1, 't1', ['a.md', 'b.md'], { noise: ['n.md'], always: ['rules.md'] }),
      serve(2, 't1', ['c.md']),
      serve(3, 't2', ['a.md', 'b.md']),
      serve(4, 't3', ['a.md']),
    ]);
    expect(edges.edges).toBe(3);
    // t1 (a, b, c across its two serves) and t2 (a, b): C(a, b) = 2 → 2/2.1; C(a, c) = C(b, c) = 1 → 1/1.1.
    expect(sorted(edges.edgesFor(['a.md']))).toEqual([
      ['a.md', 'b.md', 0.952381],
      ['a.md', 'c.md', 0.909091],
    ]);
    expect(edges.edgesFor(['n.md', 'rules.md'])).toEqual([]);
    expect(edges.edgesFor(['a.md', 'a.md'])).toHaveLength(2);
  });

  it('decay with the age of the task and vanish past the horizon', () => {
    const tenDaysAgo = new Date(NOW.getTime() - 10 * 86_400_000).toISOString();
    const old = new Date(NOW.getTime() - 101 * 86_400_000).toISOString();
    const edges = edgesOf([
      serve(1, 't1', ['a.md', 'b.md'], { recordedAt: tenDaysAgo }),
      serve(2, 't2', ['a.md', 'c.md'], { recordedAt: old }),
    ]);
    // w = 0.5 after one half-life: C = 0.5 → 0.5 / 0.6.
    expect(sorted(edges.edgesFor(['a.md']))).toEqual([['a.md', 'b.md', 0.833333]]);
  });
});

describe('planGraphHop', () => {
  const edge = (source: string, target: string, weight = 1, kind: GraphEdge['kind'] = 'link'): GraphEdge => ({
    source,
    target,
    kind,
    weight,
  });
  const edgesFrom = (all: GraphEdge[]) => (paths: readonly string[]) =>
    all.filter((e) => paths.includes(e.source) || paths.includes(e.target));
  const parents: HopParent[] = [
    { path: 'p1.md', heading: 'Top', score: 0.04 },
    { path: 'p2.md', heading: null, score: 0.02 },
  ];
  const resolveAll = (path: string) => ({ chunkId: path.length, heading: `${path} first` });
  const base = { hops: 1, maxAddedPerHit: 2, weight: 0.5, present: new Set(['p1.md', 'p2.md']) };

  it('scores weight × parent × edge, follows edges both ways, and credits each document to its best parent', () => {
    const pulled = planGraphHop(
      parents,
      edgesFrom([edge('p1.md', 'x.md', 0.5, 'co_helpful'), edge('y.md', 'p2.md'), edge('p2.md', 'x.md')]),
      { ...base, resolve: resolveAll },
    );
    expect(pulled.map((p) => [p.path, p.from.path, p.kind, p.score])).toEqual([
      // x: via p1 0.5 × 0.04 × 0.5 = 0.01, via p2 0.5 × 0.02 × 1 = 0.01 — equal: the better-ranked parent wins.
      ['x.md', 'p1.md', 'co_helpful', 0.01],
      ['y.md', 'p2.md', 'link', 0.01],
    ]);
    expect(pulled[0]).toMatchObject({
      from: { path: 'p1.md', heading: 'Top' },
      heading: 'x.md first',
      hop: 1,
    });
  });

  it('never pulls in a present or unservable document, caps each parent, and keeps the strongest edge', () => {
    const calls: string[] = [];
    const pulled = planGraphHop(
      parents,
      edgesFrom([
        edge('p1.md', 'p2.md'),
        edge('p1.md', 'gone.md'),
        edge('p1.md', 'a.md', 0.9),
        edge('p1.md', 'b.md', 0.8),
        edge('p1.md', 'c.md', 0.7),
        edge('p1.md', 'a.md', 0.2, 'co_helpful'),
      ]),
      {
        ...base,
        maxAddedPerHit: 2,
        resolve: (path) => {
          calls.push(path);
          return path === 'gone.md' ? null : resolveAll(path);
        },
      },
    );
    expect(pulled.map((p) => [p.path, p.edgeWeight, p.kind])).toEqual([
      ['a.md', 0.9, 'link'],
      ['b.md', 0.8, 'link'],
    ]);
    expect(calls).toEqual(['gone.md', 'a.md', 'b.md']);
  });

  it('starts hop two from what hop one pulled in, scoring from the pulled-in score', () => {
    const pulled = planGraphHop(
      parents.slice(0, 1),
      edgesFrom([edge('p1.md', 'a.md'), edge('a.md', 'b.md', 0.5), edge('b.md', 'p1.md', 0.1)]),
      { ...base, hops: 2, present: new Set(['p1.md']), resolve: resolveAll },
    );
    expect(pulled.map((p) => [p.path, p.hop, p.from.path, p.score])).toEqual([
      ['a.md', 1, 'p1.md', 0.02],
      // b.md is reachable from p1 directly (0.5 × 0.04 × 0.1 = 0.002) — it is pulled at hop 1 by that edge.
      ['b.md', 1, 'p1.md', expect.closeTo(0.002, 12)],
    ]);
    const chain = planGraphHop(
      parents.slice(0, 1),
      edgesFrom([edge('p1.md', 'a.md'), edge('a.md', 'b.md', 0.5)]),
      { ...base, hops: 2, present: new Set(['p1.md']), resolve: resolveAll },
    );
    expect(chain.map((p) => [p.path, p.hop, p.from.path, p.score])).toEqual([
      ['a.md', 1, 'p1.md', 0.02],
      ['b.md', 2, 'a.md', 0.005],
    ]);
  });
});

describe('withoutOwnServes', () => {
  it('drops the serves of the query’s task and of the same normalised text, nothing else', () => {
    const serves = [
      serve(1, 'q1', ['a.md'], { query: 'How do I  reset\tthe PASSWORD?' }),
      serve(2, 'other', ['a.md'], { query: 'ｈｏｗ do i reset the password?' }),
      serve(3, 'q1', ['b.md'], { query: 'a different wording' }),
      serve(4, 'q2', ['c.md'], { query: 'unrelated' }),
    ];
    expect(normalizeQueryText('  ＡＢＣ\n def ')).toBe('abc def');
    expect(
      withoutOwnServes(serves, { id: 'q1', query: 'How do I reset the password?' }).map((s) => s.serveId),
    ).toEqual([4]);
    expect(
      withoutOwnServes(serves, { id: 'hand-written', query: 'unrelated' }).map((s) => s.serveId),
    ).toEqual([1, 2, 3]);
  });
});
