import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { ExpectedEntry, RankedHit } from '../../src/measure/eval-metrics.js';
import {
  decodeTrecId,
  encodeTrecId,
  entryFromTrecDocId,
  formatTrecQrels,
  formatTrecRun,
  goldenFromTrec,
  parseTrecQrels,
  parseTrecQueries,
  runDocIds,
  trecDocId,
} from '../../src/measure/trec.js';

const e = (path: string, heading: string | null = null): ExpectedEntry => ({ path, heading });
const ranked = (...hits: [string, string | null][]): RankedHit[] =>
  hits.map(([path, heading], i) => ({ rank: i + 1, path, heading, score: 0.5 }));

describe('TREC identifiers', () => {
  it('percent-encodes whitespace, % and # so columns and the path#heading split survive', () => {
    expect(encodeTrecId('a b\t%#é')).toBe('a%20b%09%25%23é');
    expect(decodeTrecId('a%20b%09%25%23é')).toBe('a b\t%#é');
    expect(decodeTrecId('100%')).toBe('100%');
    expect(trecDocId(e('notes/a b.md', ' Set up '))).toBe('notes/a%20b.md#Set%20up');
    expect(trecDocId(e('c#.md'))).toBe('c%23.md');
    expect(entryFromTrecDocId('c%23.md')).toEqual(e('c#.md'));
    expect(entryFromTrecDocId('notes/a%20b.md#Set%20up')).toEqual(e('notes/a b.md', 'Set up'));
    expect(entryFromTrecDocId('doc123')).toEqual(e('doc123'));
  });
});

/** Every character some common reader (Python, Go, Java, .NET, Rust, JavaScript) splits a column or line on. */
const BREAKING = [
  ...'\t\n\v\f\r \x1c\x1d\x1e\x1f\x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000\u180e\u200b\ufeff\0\x7f',
  ...Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i)),
];
const python = spawnSync('python3', ['--version']).status === 0;

describe('TREC files against whitespace in ids and headings', () => {
  const id = `q${BREAKING.join('')}1`;
  const heading = `Set${BREAKING.join('x')}up`;
  const expected = [e(`notes/a${BREAKING.join('')}.md`, heading)];
  const run = formatTrecRun(
    [{ id, query: 'x', expected, topK: ranked([`b${BREAKING.join('')}.md`, heading], ['a.md', null]) }],
    `tag${BREAKING.join('')}`,
  );
  const qrels = formatTrecQrels([{ id, query: 'x', expected }]);

  it('encodes every one of them, so a line has its columns whatever the reader splits on', () => {
    for (const ch of BREAKING) expect(encodeTrecId(ch), JSON.stringify(ch)).toMatch(/^(%[0-9A-F]{2})+$/);
    const text = `${run}${qrels}`;
    expect([...text].filter((ch) => BREAKING.includes(ch) && ch !== ' ' && ch !== '\n')).toEqual([]);
    expect(
      text
        .trimEnd()
        .split('\n')
        .map((line) => line.split(' ').length),
    ).toEqual([6, 6, 4]);
    expect(entryFromTrecDocId(trecDocId(expected[0]!))).toEqual(expected[0]);
    expect(parseTrecQrels(qrels, 'q.txt')).toEqual([
      { qid: id, docid: trecDocId(expected[0]!), relevant: true, line: 1 },
    ]);
  });

  it.runIf(python)("Python's split() and splitlines() see 6 run columns and 4 qrels columns", () => {
    const script =
      'import sys, json\n' +
      'text = sys.stdin.buffer.read().decode("utf-8")\n' +
      'print(json.dumps([len(line.split()) for line in text.splitlines()]))\n';
    const count = (input: string) =>
      JSON.parse(spawnSync('python3', ['-c', script], { input, encoding: 'utf8' }).stdout) as number[];
    expect(count(run)).toEqual([6, 6]);
    expect(count(qrels)).toEqual([4]);
  });
});

describe('TREC run', () => {
  it('gives a consuming hit its entry docid and keeps every other docid unique and not relevant', () => {
    const expected = [e('a.md'), e('b.md', 'Setup')];
    const hits = ranked(
      ['a.md', 'One'], // consumes the document-level entry
      ['a.md', 'Two'], // another chunk of a found document: not relevant again
      ['b.md', 'setup'], // consumes the heading entry (case-insensitive)
      ['b.md', 'Setup'], // a second chunk under the same heading
      ['a.md', 'Two'], // the same chunk id as rank 2
      ['c.md', null],
    );
    expect(runDocIds(expected, hits)).toEqual([
      'a.md',
      'a.md#Two',
      'b.md#Setup',
      'b.md#Setup#4',
      'a.md#Two#5',
      'c.md#',
    ]);
  });

  it('writes qid Q0 docid rank score tag with a strictly falling score, skipping empty rankings', () => {
    const text = formatTrecRun(
      [
        { id: 'q one', query: 'x', expected: [e('a.md')], topK: ranked(['x.md', 'H'], ['a.md', null]) },
        { id: 'q2', query: 'y', expected: [e('a.md')], topK: [] },
      ],
      'groove',
    );
    expect(text).toBe('q%20one Q0 x.md#H 1 2 groove\nq%20one Q0 a.md 2 1 groove\n');
  });

  it('writes qrels once per distinct docid', () => {
    expect(formatTrecQrels([{ id: 'q', query: 'x', expected: [e('a.md'), e('a.md'), e('b.md', 'H')] }])).toBe(
      'q 0 a.md 1\nq 0 b.md#H 1\n',
    );
  });
});

describe('TREC/BEIR input', () => {
  it('reads TSV and JSONL queries, with file and line in every error', () => {
    expect(parseTrecQueries('1\tfirst query\n\n2\t second \n', 'q.tsv')).toEqual([
      { id: '1', query: 'first query' },
      { id: '2', query: 'second' },
    ]);
    expect(parseTrecQueries('{"_id": 7, "text": "seven", "title": ""}\n', 'q.jsonl')).toEqual([
      { id: '7', query: 'seven' },
    ]);
    expect(() => parseTrecQueries('1\tone\n1\tagain\n', 'q.tsv')).toThrow(
      /"q\.tsv" line 2: query id "1" already appears on line 1/,
    );
    expect(() => parseTrecQueries('no tab here\n', 'q.tsv')).toThrow(
      /"q\.tsv" line 1: expected `qid<TAB>text`/,
    );
    expect(() => parseTrecQueries('{"_id": "a", "text": "x"}\n{oops\n', 'q.jsonl')).toThrow(
      /line 2: not a JSON object/,
    );
    expect(() => parseTrecQueries('1\t   \n', 'q.tsv')).toThrow(/line 1: query "1" has no text/);
    expect(() => parseTrecQueries('\n\n', 'q.tsv')).toThrow(/no query in the file/);
    try {
      parseTrecQueries('x\n', 'q.tsv');
    } catch (error) {
      expect((error as { code: string }).code).toBe('GOLDEN_INVALID');
    }
  });

  it('reads 3- and 4-column qrels, skips a header, and counts relevance > 0', () => {
    const beir = parseTrecQrels('query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t0\n', 'r.tsv');
    expect(beir.map((r) => [r.qid, r.docid, r.relevant, r.line])).toEqual([
      ['q1', 'd1', true, 2],
      ['q1', 'd2', false, 3],
    ]);
    const trec = parseTrecQrels('q%201 0 d1 2\nq%201 0 d3 -1\n', 'r.txt');
    expect(trec.map((r) => [r.qid, r.docid, r.relevant])).toEqual([
      ['q 1', 'd1', true],
      ['q 1', 'd3', false],
    ]);
    expect(() => parseTrecQrels('q1 d1 1\nq1 d1\n', 'r.txt')).toThrow(/"r\.txt" line 2: expected 3 columns/);
    expect(() => parseTrecQrels('q1 d1 1\nq1 d2 yes\n', 'r.txt')).toThrow(
      /line 2: relevance "yes" is not an integer/,
    );
  });

  it('builds golden queries in the queries order, leaves out unjudged ones, refuses unknown query ids', () => {
    const queries = [
      { id: 'a', query: 'first' },
      { id: 'b', query: 'second' },
      { id: 'c', query: 'third' },
    ];
    const qrels = parseTrecQrels('c 0 x.md#H 1\na 0 y.md 1\na 0 y.md 3\nb 0 z.md 0\n', 'r.txt');
    expect(goldenFromTrec(queries, qrels, { queries: 'q.tsv', qrels: 'r.txt' })).toEqual([
      { id: 'a', query: 'first', expected: [e('y.md')] },
      { id: 'c', query: 'third', expected: [e('x.md', 'H')] },
    ]);
    const stray = parseTrecQrels('zz 0 y.md 1\n', 'r.txt');
    expect(() => goldenFromTrec(queries, stray, { queries: 'q.tsv', qrels: 'r.txt' })).toThrow(
      /"r\.txt" line 1: query "zz" is not in "q\.tsv"/,
    );
  });
});
