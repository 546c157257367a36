// `groove search --format text` for a person: rank, title and path, the heading breadcrumb, a relevance that
// says what it is, a few lines around the first match (the whole text with --full), matches marked only on a
// terminal, and no line a file's text could forge.
import { describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../src/app/index.js';
import { renderSearchText } from '../../src/cli/render-search.js';

type Hit = SearchResponse['results'][number];

const LONG = [
  'Intro line one.',
  '',
  'Intro line two.',
  'Filler three.',
  'Filler four.',
  'The restore command is pg_restore --jobs 4.',
  'After five.',
  'After six.',
  'After seven.',
  'After eight.',
].join('\n');

function hit(overrides: Partial<Hit>): Hit {
  return {
    chunkId: 1,
    score: 0.0164,
    path: 'ops/backup.md',
    title: 'Nightly backup',
    heading: 'Restoring',
    breadcrumb: 'Nightly backup > Restoring',
    lineStart: 12,
    lineEnd: 21,
    level: 2,
    topic: null,
    date: null,
    tags: [],
    content: LONG,
    matchSpans: [],
    ...overrides,
  };
}

function response(results: Hit[], settings: Partial<SearchResponse['settings']> = {}): SearchResponse {
  return {
    results,
    confidence: 0.8,
    lowConfidence: false,
    filterApplied: null,
    legs: {
      lexical: { status: 'ok', candidates: results.length },
      vector: { status: 'disabled', candidates: 0 },
      reranker: { status: 'disabled', candidates: 0 },
    },
    lexicalOnly: false,
    settings: { minConfidence: 0.3, minConfidenceIsDefault: true, fold: 'section', ...settings },
  };
}

const start = LONG.indexOf('pg_restore');
const spans = [{ start, end: start + 'pg_restore'.length }];

describe('search text for people', () => {
  it('names a leg the request left out, with why, and says nothing of a plainly disabled one', () => {
    const plain = renderSearchText(response([]), {});
    expect(plain).not.toMatch(/leg disabled/);
    const asked = response([]);
    asked.legs.vector = {
      status: 'disabled',
      candidates: 0,
      reason: 'not run: the request asked for legs: lexical',
    };
    expect(renderSearchText(asked, {})).toContain(
      '[vector leg disabled: not run: the request asked for legs: lexical]\n',
    );
  });

  it('states the confidence, and below the threshold what it means and where the threshold came from', () => {
    const low = { ...response([hit({})]), confidence: 0.123, lowConfidence: true };
    expect(renderSearchText(low, {})).toContain(
      "[low_confidence: confidence 0.12 < min_confidence 0.3 (the built-in default): the top hit holds few of the query's distinctive words; the knowledge base may not answer this]",
    );
    const fitted = {
      ...response([hit({})], { minConfidence: 0.45, minConfidenceIsDefault: false }),
      confidence: 0.4,
      lowConfidence: true,
    };
    expect(renderSearchText(fitted, {})).toContain('< min_confidence 0.45 (set for this KB)');
    // No results: nothing to be confident about, and the no-results line says so instead.
    expect(renderSearchText({ ...response([]), confidence: 0, lowConfidence: true }, {})).not.toContain(
      'confidence',
    );
  });

  it('says how many lower hits a hit folded in, and by what', () => {
    const folded = (fold?: 'section' | 'document') =>
      renderSearchText(
        response([hit({ folded: 3 }), hit({ path: 'ops/other.md' })], fold ? { fold } : {}),
        {},
      ).split('\n\n');
    const [first, second] = folded('document');
    expect(first).toContain('\n   +3 lower hits of this document folded in (--fold none lists them)\n');
    expect(second).not.toContain('folded');
    expect(folded()[0]).toContain('+3 lower hits of this section folded in');
  });

  it('shows rank, title, path, breadcrumb, a readable relevance and the lines around the first match', () => {
    const text = renderSearchText(
      response([
        hit({ matchSpans: spans }),
        hit({ score: 0.0082, path: 'ops/other.md', lineStart: null, lineEnd: null, matchSpans: [] }),
      ]),
      {},
    );
    const [first, second] = text.trimEnd().split('\n\n');
    expect(first!.split('\n')).toEqual([
      '[confidence 0.80]',
      '1. Nightly backup  ops/backup.md:12',
      '   § Nightly backup > Restoring',
      '   relevance 100% of the top hit (score 0.0164: fused rank score, higher is better)',
      '   │ Filler four.',
      '   │ The restore command is pg_restore --jobs 4.',
      '   │ After five.',
      '   │ After six.',
      '   │ …',
    ]);
    // No match in the text (a hit of the vector leg): its first lines.
    expect(second).toContain('2. Nightly backup  ops/other.md');
    expect(second).toContain('relevance 50% of the top hit');
    expect(second).toContain('   │ Intro line one.\n   │ Intro line two.');
  });

  it('--full prints the whole text', () => {
    const text = renderSearchText(response([hit({ matchSpans: spans })]), {
      full: true,
    });
    for (const line of LONG.split('\n')) expect(text).toContain(`   │ ${line}\n`);
    expect(text).not.toContain('…');
  });

  it('marks the matched words only on a terminal', () => {
    const plain = renderSearchText(response([hit({ matchSpans: spans })]), {});
    expect(plain).not.toContain('\u001b[');
    const coloured = renderSearchText(response([hit({ matchSpans: spans })]), {
      color: true,
    });
    expect(coloured).toMatch(
      /The restore command is \u001b\[1m\u001b\[33mpg_restore\u001b\[39m\u001b\[22m --jobs 4\./,
    );
  });

  it('cuts a long line around its match and escapes what could forge a line', () => {
    const long = `${'x'.repeat(300)} needle ${'y'.repeat(300)}`;
    const at = long.indexOf('needle');
    const text = renderSearchText(
      response([
        hit({ content: long, matchSpans: [{ start: at, end: at + 6 }] }),
        hit({ title: 'evil\u001b[2J', content: 'fake\u001b]0;title\u0007 line', matchSpans: [] }),
      ]),
      {},
    );
    const cut = text.split('\n').find((line) => line.includes('needle'))!;
    expect(cut.length).toBeLessThan(180);
    expect(cut).toMatch(/^ {3}│ …x+ needle y+…$/);
    expect(text).not.toContain('\u001b');
    expect(text).toContain('evil\\x1b[2J');
  });

  it('prints the stage times on a last line only when the search was timed', () => {
    const timed = { ...response([hit({})]), timingsMs: { lexical: 0.412, fusion: 0.01, total: 1.5 } };
    const text = renderSearchText(timed, {});
    expect(text.endsWith('\n\n[timings_ms: lexical 0.412, fusion 0.01, total 1.5]\n')).toBe(true);
    expect(renderSearchText(response([hit({})]), {})).not.toContain('timings_ms');
  });
});
