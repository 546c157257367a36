// The oracle for searching several knowledge bases: SciFact documents split into two and into five KBs must rank
// every query exactly as one KB holding all of them (up to equal scores), lexical-only and hybrid, and a filter
// matching one KB only must find what the whole KB finds there. The indexes are built once for the file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type KnowledgeBase, openKnowledgeBase } from '../../src/app/knowledge-base.js';
import type { SearchHit } from '../../src/app/search/index.js';
import { searchKnowledgeBases } from '../../src/app/search-knowledge-bases.js';
import { resolveConfig } from '../../src/config/resolve-config.js';
import { HashEmbedder } from '../support/hash-embedder.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
// The eval datasets live beside the checkout; GROOVE_EVAL_ROOT names them for a checkout elsewhere (a worktree).
const dataset = path.join(
  process.env.GROOVE_EVAL_ROOT ?? path.resolve(repoRoot, '../shared/eval'),
  'scifact',
);
const golden = path.join(dataset, 'golden-train.yml');
const present = fs.existsSync(golden) && fs.existsSync(path.join(dataset, 'kb'));

/** Documents in the KBs: the first ones by name, plus every document the queries expect. */
const DOCUMENTS = 1200;
const QUERIES = 40;
/**
 * Word fragments the word-level table cannot match: trigram matches fill the lexical leg (and excluded terms
 * rank through the MATCH expression's NOT), so the trigram leg's statistics are combined too.
 */
const FRAGMENT_QUERIES = [
  'omeosta ndriti rboriz',
  'ynapti lasticit',
  'itochondri -ysfunct',
  'mmunothera umori',
];

interface GoldenQuery {
  id: string;
  query: string;
  expected: { path: string }[];
}

const temp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-cross-kb-')));
const opened: KnowledgeBase[] = [];
let queries: GoldenQuery[] = [];
let whole: KnowledgeBase;
let halves: KnowledgeBase[];
let fifths: KnowledgeBase[];
/** Which part of the five each document went to. */
const fifthOf = new Map<string, number>();

afterAll(async () => {
  for (const kb of opened) await kb.close();
  fs.rmSync(temp, { recursive: true, force: true });
});

async function indexFolder(name: string, files: readonly string[]): Promise<KnowledgeBase> {
  const kbPath = path.join(temp, name);
  fs.mkdirSync(kbPath, { recursive: true });
  for (const file of files) fs.copyFileSync(path.join(dataset, 'kb', file), path.join(kbPath, file));
  const config = resolveConfig({
    cwd: temp,
    env: { HOME: temp, GROOVE_HOME: path.join(temp, 'home') },
    overrides: { kbPath, dbPath: path.join(temp, `${name}.db`) },
  });
  const embedder = new HashEmbedder({ dimension: 64 });
  const kb = openKnowledgeBase(config, { createEmbedder: async () => embedder });
  opened.push(kb);
  await kb.index();
  return kb;
}

beforeAll(async () => {
  if (!present) return;
  const all = parse(fs.readFileSync(golden, 'utf8')) as { queries: GoldenQuery[] };
  queries = all.queries.slice(0, QUERIES);
  const names = fs
    .readdirSync(path.join(dataset, 'kb'))
    .filter((n) => n.endsWith('.md'))
    .sort();
  const wanted = new Set([
    ...names.slice(0, DOCUMENTS),
    ...queries.flatMap((q) => q.expected.map((e) => e.path)),
  ]);
  const files = names.filter((n) => wanted.has(n));
  files.forEach((file, i) => {
    fifthOf.set(file, i % 5);
  });
  whole = await indexFolder('whole', files);
  halves = [];
  for (let p = 0; p < 2; p++)
    halves.push(
      await indexFolder(
        `half-${p}`,
        files.filter((_, i) => i % 2 === p),
      ),
    );
  fifths = [];
  for (let p = 0; p < 5; p++)
    fifths.push(
      await indexFolder(
        `fifth-${p}`,
        files.filter((_, i) => i % 5 === p),
      ),
    );
}, 600_000);

/** A hit as the same chunk in either layout: its path (flat folders keep names) and text. */
function keyOf(hit: SearchHit): string {
  return `${hit.path}\n${hit.heading ?? ''}\n${hit.content}`;
}

/**
 * Equal rankings up to equal scores: the same scores in the same order, and the same hits for every score but the
 * last one shown (ten hits can cut a group of equal scores anywhere).
 */
function expectSameRanking(
  actual: readonly SearchHit[],
  expected: readonly SearchHit[],
  query: string,
): void {
  expect(
    actual.map((h) => h.score),
    query,
  ).toEqual(expected.map((h) => h.score));
  const groups = (hits: readonly SearchHit[]) => {
    const byScore = new Map<number, string[]>();
    for (const hit of hits) byScore.set(hit.score, [...(byScore.get(hit.score) ?? []), keyOf(hit)]);
    const last = hits.at(-1)?.score;
    return [...byScore].filter(([score]) => score !== last).map(([score, keys]) => [score, keys.sort()]);
  };
  expect(groups(actual), query).toEqual(groups(expected));
}

describe.skipIf(!present)('search across KBs ranks as one corpus (SciFact)', () => {
  for (const mode of ['lexical', 'hybrid'] as const) {
    it(`${mode}: two and five KBs rank every query as one KB holding all`, { timeout: 300_000 }, async () => {
      const options = mode === 'lexical' ? { skipLeg: 'vector' as const } : {};
      let nonEmpty = 0;
      const texts = [...queries.map((q) => q.query), ...FRAGMENT_QUERIES];
      let trigramFilled = 0;
      for (const text of texts) {
        const request = { query: text, limit: 10, explain: true };
        const expected = await searchKnowledgeBases([whole], request, options);
        if (expected.results.length > 0) nonEmpty++;
        if (expected.results.some((hit) => hit.explain?.lexicalSource === 'trigram')) trigramFilled++;
        for (const parts of [halves, fifths]) {
          const actual = await searchKnowledgeBases(parts, request, options);
          expectSameRanking(actual.results, expected.results, text);
        }
      }
      expect(nonEmpty).toBe(texts.length);
      expect(trigramFilled).toBeGreaterThanOrEqual(FRAGMENT_QUERIES.length);
    });
  }

  it('one KB searched through searchKnowledgeBases is that KB search, each hit labelled', async () => {
    for (const q of queries.slice(0, 10)) {
      const own = await whole.search({ query: q.query, limit: 10 });
      const combined = await searchKnowledgeBases([{ kb: whole, name: 'all' }], {
        query: q.query,
        limit: 10,
      });
      expect(combined.results).toEqual(own.results.map((hit) => ({ ...hit, kb: 'all' })));
      expect(combined.legs).toEqual(own.legs);
    }
  });

  it('labels each hit with the KB it came from', async () => {
    const targets = fifths.map((kb, p) => ({ kb, name: `part-${p}` }));
    const response = await searchKnowledgeBases(targets, { query: queries[0]!.query, limit: 10 });
    expect(response.results.length).toBe(10);
    for (const hit of response.results) expect(hit.kb).toBe(`part-${fifthOf.get(hit.path)}`);
  });

  it('a filter matching one KB only finds there what the whole KB finds', { timeout: 120_000 }, async () => {
    for (const q of queries.slice(0, 15)) {
      const target = q.expected[0]!.path;
      const part = fifthOf.get(target)!;
      // The expected document and a few dozen others, all in the same one of the five KBs.
      const globs = [target, ...[...fifthOf].filter(([, p]) => p === part).map(([name]) => name)].slice(
        0,
        40,
      );
      for (const mode of [{ skipLeg: 'vector' as const }, {}]) {
        const request = { query: q.query, limit: 10, pathGlobs: globs };
        const expected = await searchKnowledgeBases([whole], request, mode);
        const actual = await searchKnowledgeBases(fifths, request, mode);
        expect(actual.results.length, q.query).toBeGreaterThan(0);
        expectSameRanking(actual.results, expected.results, q.query);
        expect(new Set(actual.results.map((h) => fifthOf.get(h.path)))).toEqual(new Set([part]));
      }
    }
  });
});
