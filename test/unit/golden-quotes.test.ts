import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildMultiPatternMatcher } from '../../src/core/multi-pattern-search.js';
import type { ExpectedEntry } from '../../src/measure/eval-metrics.js';
import {
  buildQuoteNeedles,
  createQuoteScan,
  detectQuotedQueries,
  normalizeForQuote,
  type QuotedQueryFacts,
} from '../../src/measure/golden-quotes.js';

interface Golden {
  id: string;
  query: string;
  expected?: ExpectedEntry[];
  topK?: string[];
}

/** Run the whole check over documents given as path → chunks of [heading, context, content]. */
function check(golden: Golden[], documents: Record<string, (string | null)[][]>) {
  const needles = buildQuoteNeedles(golden.map((g) => g.query));
  const scan = createQuoteScan(needles);
  for (const [path, chunks] of Object.entries(documents))
    for (const fields of chunks) scan.observe(path, fields);
  const facts: QuotedQueryFacts[] = golden.map((g) => ({
    id: g.id,
    expected: g.expected ?? [],
    topK: (g.topK ?? []).map((path, i) => ({ rank: i + 1, path })),
  }));
  return detectQuotedQueries(facts, needles, scan.matchesByPath());
}

const body = (text: string) => [null, '', text];

describe('normalizeForQuote', () => {
  it('collapses whitespace of every kind, trims and lowercases', () => {
    expect(normalizeForQuote('  Claude Code\n   の\tcontext 管理  ')).toBe('claude code の context 管理');
    expect(normalizeForQuote('A\u3000B')).toBe('a b');
  });
});

describe('quote needles', () => {
  it('skips queries under 12 characters, counted in characters rather than bytes', () => {
    const needles = buildQuoteNeedles([
      'MCP とは',
      '日本語クエリ',
      'レコードユーザーの権限設計',
      'cross-encoder reranking',
      'exactly12chr',
    ]);
    expect(needles.map((n) => n.goldenIndexes)).toEqual([[2], [3], [4]]);
    expect(needles[1]!.text).toBe('cross-encoder reranking');
  });

  it('collapses queries that normalise to the same text, keeping every golden index', () => {
    const needles = buildQuoteNeedles([
      'cross-encoder reranking',
      'Cross-Encoder   Reranking',
      'torch.compile guide',
    ]);
    expect(needles.map((n) => n.goldenIndexes)).toEqual([[0, 1], [2]]);
  });
});

describe('golden-queries-quoted rules', () => {
  const twoQueries: Golden[] = [
    { id: 'a', query: 'cross-encoder reranking', topK: ['other.md', 'notes/eval.md'] },
    { id: 'b', query: 'torch.compile guide' },
  ];

  it('reports a document quoting two distinct queries, with each rank in top_k or null', () => {
    const findings = check(twoQueries, {
      'notes/eval.md': [body('We test "Cross-Encoder reranking" and also the\ntorch.compile   guide query.')],
    });
    expect(findings).toEqual([
      {
        check: 'golden-queries-quoted',
        path: 'notes/eval.md',
        quoted: [
          { queryId: 'a', rankInTopK: 2 },
          { queryId: 'b', rankInTopK: null },
        ],
      },
    ]);
  });

  it('does not report a document quoting only one query', () => {
    expect(
      check(twoQueries, {
        'topic.md': [body('all about cross-encoder reranking, again cross-encoder reranking')],
      }),
    ).toEqual([]);
  });

  it('aggregates per document across chunks', () => {
    const findings = check(twoQueries, {
      'split.md': [body('first chunk: cross-encoder reranking'), body('second chunk: torch.compile guide')],
    });
    expect(findings.map((f) => f.path)).toEqual(['split.md']);
  });

  it('scans heading, breadcrumb and body separately and never across their seam', () => {
    expect(
      check(twoQueries, {
        'h.md': [['Cross-encoder reranking', 'Guide > torch.compile guide', 'body text']],
      }),
    ).toHaveLength(1);
    // "cross-encoder" ends the heading and "reranking" starts the body: no quote.
    expect(
      check(twoQueries, { 'seam.md': [['cross-encoder', '', 'reranking and the torch.compile guide']] }),
    ).toEqual([]);
  });

  it('ignores queries shorter than 12 characters even when quoted', () => {
    const golden: Golden[] = [
      { id: 'short', query: 'MCP とは' },
      { id: 'b', query: 'torch.compile guide' },
    ];
    expect(check(golden, { 'x.md': [body('MCP とは何か。torch.compile guide')] })).toEqual([]);
  });

  it('exempts a query whose expected entries list the document, even when they name a heading', () => {
    const golden: Golden[] = [
      { id: 'a', query: 'cross-encoder reranking', expected: [{ path: 'topic.md', heading: 'Overview' }] },
      { id: 'b', query: 'torch.compile guide' },
    ];
    const doc = { 'topic.md': [body('cross-encoder reranking and torch.compile guide')] };
    expect(check(golden, doc)).toEqual([]);
    // The same text in another document still counts.
    expect(check(golden, { 'elsewhere.md': doc['topic.md'] })).toHaveLength(1);
  });

  it('exempts a collapsed query when any entry with that text expects the document', () => {
    const golden: Golden[] = [
      { id: 'a', query: 'cross-encoder reranking' },
      { id: 'a-dup', query: 'Cross-Encoder Reranking', expected: [{ path: 'topic.md', heading: null }] },
      { id: 'b', query: 'torch.compile guide' },
    ];
    expect(check(golden, { 'topic.md': [body('cross-encoder reranking; torch.compile guide')] })).toEqual([]);
  });

  it('counts two entries with the same normalised text as one query', () => {
    const golden: Golden[] = [
      { id: 'a', query: 'cross-encoder reranking' },
      { id: 'a-dup', query: 'CROSS-ENCODER  reranking' },
    ];
    expect(check(golden, { 'x.md': [body('cross-encoder reranking')] })).toEqual([]);
  });

  it('drops a match that is a substring of another match in the same document', () => {
    const golden: Golden[] = [
      { id: 'short', query: 'cross-encoder reranking' },
      { id: 'long', query: 'how does cross-encoder reranking work?' },
      { id: 'other', query: 'torch.compile guide' },
    ];
    expect(check(golden, { 'x.md': [body('Q: how does cross-encoder reranking work?')] })).toEqual([]);
    const findings = check(golden, {
      'x.md': [body('how does cross-encoder reranking work? torch.compile guide')],
    });
    expect(findings[0]!.quoted.map((q) => q.queryId)).toEqual(['long', 'other']);
  });

  it('reports nothing without needles', () => {
    expect(check([], { 'x.md': [body('anything')] })).toEqual([]);
  });
});

describe('multi-pattern matcher', () => {
  it('finds overlapping and nested patterns', () => {
    const matcher = buildMultiPatternMatcher(['he', 'she', 'his', 'hers', '', 'she']);
    expect([...matcher.findPatterns('ushers')].sort()).toEqual([0, 1, 3, 5]);
    expect([...matcher.findPatterns('')]).toEqual([]);
  });

  it('agrees with String.includes on random texts and patterns', () => {
    const alphabet = fc.constantFrom('a', 'b', 'c', 'あ', ' ', '😀');
    const word = fc.array(alphabet, { minLength: 1, maxLength: 5 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 8 }),
        fc.array(alphabet, { maxLength: 40 }),
        (patterns, chars) => {
          const text = chars.join('');
          const found = buildMultiPatternMatcher(patterns).findPatterns(text);
          const expected = patterns.flatMap((p, i) => (text.includes(p) ? [i] : []));
          expect([...found].sort((a, b) => a - b)).toEqual(expected);
        },
      ),
    );
  });
});
