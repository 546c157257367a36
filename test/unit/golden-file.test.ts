import { describe, expect, it } from 'vitest';
import { parseGoldenYaml, resolveGoldenPath, withGoldenDefault } from '../../src/app/golden/golden-file.js';
import { resolveConfig } from '../../src/config/resolve-config.js';
import { GrooveError } from '../../src/errors.js';

const parse = (text: string) => parseGoldenYaml(text, 'golden.yaml');

function errorOf(text: string): GrooveError {
  try {
    parse(text);
  } catch (error) {
    if (error instanceof GrooveError) return error;
    throw error;
  }
  throw new Error('expected the golden file to be refused');
}

describe('golden YAML', () => {
  it('reads the seed example, defaulting id to the first 32 characters of the query', () => {
    const queries = parse(`
queries:
  - id: rrf-basics            # optional, used as the diff row key
    query: "What does the k parameter in RRF do?"
    expected:
      - path: "docs/ARCHITECTURE.md"
        heading: "Data flow"
      - path: "src/db.rs"
    tags: [rrf]
  - query: "How are chunks deduplicated? A question that is longer than thirty-two characters"
    expected:
      - path: "src/indexer.rs"
defaults:
  limit: 20
  rerank: false
`);
    expect(queries).toEqual([
      {
        id: 'rrf-basics',
        query: 'What does the k parameter in RRF do?',
        expected: [
          { path: 'docs/ARCHITECTURE.md', heading: 'Data flow' },
          { path: 'src/db.rs', heading: null },
        ],
        tags: ['rrf'],
      },
      {
        id: 'How are chunks deduplicated? A q',
        query: 'How are chunks deduplicated? A question that is longer than thirty-two characters',
        expected: [{ path: 'src/indexer.rs', heading: null }],
        tags: [],
      },
    ]);
  });

  it('counts the default id in characters, not bytes', () => {
    const [q] = parse(
      'queries:\n  - query: "日本で梅雨がないのは北海道とどこか。沖縄県と小笠原諸島には梅雨がないとされる"\n    expected: [{path: a.md}]\n',
    );
    expect(q!.id).toBe('日本で梅雨がないのは北海道とどこか。沖縄県と小笠原諸島には梅雨が');
    expect([...q!.id]).toHaveLength(32);
  });

  it('reads `kb` on an expected entry only where given', () => {
    const [q] = parseGoldenYaml(
      'queries:\n  - query: restic\n    expected:\n      - { kb: notes, path: a.md }\n      - path: b.md\n',
      'golden.yaml',
    );
    expect(q!.expected).toEqual([
      { path: 'a.md', heading: null, kb: 'notes' },
      { path: 'b.md', heading: null },
    ]);
    expect(errorOf('queries:\n  - query: x\n    expected: [{path: a.md, kb: ""}]\n').message).toContain(
      'queries[0].expected[0].kb: must not be empty',
    );
  });

  it('reads `quote` on an expected entry, with or without a heading, and refuses a blank or non-string one', () => {
    const [q] = parseGoldenYaml(
      'queries:\n  - query: restic\n    expected:\n      - { path: a.md, quote: "snapshots are  kept" }\n      - { path: b.md, heading: Setup, quote: run it }\n      - path: c.md\n',
      'golden.yaml',
    );
    expect(q!.expected).toEqual([
      { path: 'a.md', heading: null, quote: 'snapshots are  kept' },
      { path: 'b.md', heading: 'Setup', quote: 'run it' },
      { path: 'c.md', heading: null },
    ]);
    expect(
      errorOf('queries:\n  - query: x\n    expected: [{path: a.md, quote: " \\n\\t "}]\n').message,
    ).toContain('queries[0].expected[0].quote: must not be empty');
    expect(errorOf('queries:\n  - query: x\n    expected: [{path: a.md, quote: 3}]\n').message).toContain(
      'queries[0].expected[0].quote: invalid type: number 3, expected a string',
    );
    expect(errorOf('queries:\n  - query: x\n    expected: [{path: a.md, quote: }]\n').message).toContain(
      'queries[0].expected[0].quote: invalid type: null, expected a string',
    );
  });

  it('rejects graded relevance with the seed message', () => {
    const error = errorOf(
      'queries:\n  - query: "reset password"\n    expected:\n      - path: a.md\n        relevance: 2\n',
    );
    expect(error.code).toBe('GOLDEN_INVALID');
    expect(error.message).toContain('failed to parse golden file "golden.yaml"');
    expect(error.message).toContain(
      'unknown field `relevance`, expected one of `path`, `heading`, `quote`, `kb`',
    );
    expect(error.message).toContain('queries[0].expected[0]');
  });

  it('rejects unknown keys at every level', () => {
    expect(errorOf('queries: []\nlimit: 3\n').message).toContain(
      'unknown field `limit`, expected `defaults` or `queries`',
    );
    expect(errorOf('queries:\n  - query: "reset password"\n    expect: [{path: a.md}]\n').message).toContain(
      'unknown field `expect`, expected one of `id`, `query`, `expected`, `tags`',
    );
    expect(errorOf('defaults:\n  k: 3\nqueries: []\n').message).toContain(
      'unknown field `k`, expected `limit` or `rerank`',
    );
  });

  it('reads `expected: []` as a negative query: one the knowledge base should not answer', () => {
    const queries = parse(
      'queries:\n  - id: off-topic\n    query: "supersonic wing flutter"\n    expected: []\n' +
        '  - query: "reset password"\n    expected:\n      - path: "auth.md"\n',
    );
    expect(queries[0]).toMatchObject({ id: 'off-topic', query: 'supersonic wing flutter', expected: [] });
    expect(queries[1]!.expected).toEqual([{ path: 'auth.md', heading: null }]);
  });

  it('refuses a missing field, a wrong type and an empty query list', () => {
    expect(errorOf('queries:\n  - query: "reset password"\n').message).toContain('missing field `expected`');
    expect(errorOf('queries:\n  - expected: [{path: a.md}]\n').message).toContain('missing field `query`');
    expect(errorOf('queries:\n  - query: "x y z"\n    expected: [{heading: H}]\n').message).toContain(
      'missing field `path`',
    );
    expect(errorOf('queries:\n  - query: 42\n    expected: [{path: a.md}]\n').message).toContain(
      'invalid type: number 42, expected a string',
    );
    expect(errorOf('queries: []\n').message).toContain('the list is empty');
    expect(errorOf('{}').message).toContain('missing field `queries`');
  });

  it('refuses duplicate ids, explicit or defaulted', () => {
    const explicit = errorOf(
      'queries:\n  - {id: a, query: "one thing", expected: [{path: a.md}]}\n  - {id: a, query: "other", expected: [{path: b.md}]}\n',
    );
    expect(explicit.message).toContain('queries[1]: id "a" is already used by queries[0]');
    const defaulted = errorOf(
      'queries:\n  - {query: "same question", expected: [{path: a.md}]}\n  - {query: "same question", expected: [{path: b.md}]}\n',
    );
    expect(defaulted.message).toContain('already used');
  });

  it('refuses a query that is only exclusions, or is blank', () => {
    expect(
      errorOf('queries:\n  - query: "-postgres -mysql"\n    expected: [{path: a.md}]\n').message,
    ).toMatch(/queries\[0\]\.query: .*exclu/i);
    expect(errorOf('queries:\n  - query: "   "\n    expected: [{path: a.md}]\n').message).toContain(
      'must not be empty',
    );
  });

  it('reports YAML syntax errors and duplicate keys as parse failures', () => {
    expect(errorOf('queries: [\n').code).toBe('GOLDEN_INVALID');
    expect(errorOf('queries: []\nqueries: []\n').message).toContain('failed to parse golden file');
  });
});

describe('golden path', () => {
  it('prefers --golden, then [eval] golden, then <kb>/.groove-eval.yml', () => {
    expect(resolveGoldenPath({ flag: '/x/g.yml', configured: '/c/g.yml', kbPath: '/kb' })).toBe('/x/g.yml');
    expect(resolveGoldenPath({ configured: '/c/g.yml', kbPath: '/kb' })).toBe('/c/g.yml');
    expect(resolveGoldenPath({ configured: null, kbPath: '/kb' })).toBe('/kb/.groove-eval.yml');
  });

  it("reads the KB's .groove-eval.yml first, then groove's own set; writes only groove's own set", () => {
    const config = resolveConfig({ cwd: '/nowhere', env: {}, overrides: { kbPath: '/kb' } });
    const own = '/data/kbs/kb-1/golden.yml';
    const golden = (use: 'read' | 'write', present: string[]) =>
      withGoldenDefault(config, '/kb', own, use, (file) => present.includes(file)).eval.golden;
    expect(golden('read', ['/kb/.groove-eval.yml', own])).toBeNull();
    expect(golden('read', [own])).toBe(own);
    expect(golden('read', [])).toBeNull();
    expect(golden('write', ['/kb/.groove-eval.yml'])).toBe(own);
    expect(golden('write', [])).toBe(own);
    const configured = { ...config, eval: { ...config.eval, golden: '/c/g.yml' } };
    expect(withGoldenDefault(configured, '/kb', own, 'write', () => false).eval.golden).toBe('/c/g.yml');
    expect(withGoldenDefault(config, '/kb', null, 'write', () => false).eval.golden).toBeNull();
  });
});
