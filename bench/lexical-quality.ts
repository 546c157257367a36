// Lexical-quality study: which FTS5 design should rank? Builds trigram and word-level tables over an eval
// dataset in a temp SQLite DB (raw better-sqlite3, not the groove store) and scores each leg and combination.
// Usage: npx tsx bench/lexical-quality.ts [--dataset jsquad|scifact|cranfield|all]

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { parse as parseYaml } from 'yaml';
import { compileFtsQuery, compileWordQuery, QUERY_STOP_WORDS } from '../src/rank/fts-query.js';
import { fuseRrf } from '../src/rank/fuse-rrf.js';
import { segmentForIndex } from '../src/rank/segment-words.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const evalRoot = path.resolve(repoRoot, '../shared/eval');
const LIMIT = 10;
const POOL = Math.max(LIMIT * 5, 50);
const RRF_K = 60;

const DATASETS = {
  jsquad: {
    dir: 'jsquad-valid',
    golden: 'golden.yml',
    perSection: true,
    reference:
      'benchmarks.md: trigram R@5 0.917 / MRR 0.873, words 0.968 / 0.927; target R@5 ≥ 0.96, MRR ≥ 0.92',
  },
  scifact: {
    dir: 'scifact',
    golden: 'golden-train.yml',
    perSection: false,
    reference: 'benchmarks.md: words nDCG@10 0.687, trigram ≈ 0.650; target ≥ 0.69',
  },
  cranfield: { dir: 'cranfield', golden: 'golden.yml', perSection: false, reference: 'no reference numbers' },
} as const;
type DatasetName = keyof typeof DATASETS;

interface Chunk {
  id: number;
  path: string;
  title: string;
  heading: string;
  content: string;
}
interface Expected {
  path: string;
  heading?: string;
}
interface GoldenQuery {
  id: string;
  query: string;
  expected: Expected[];
}
interface Hit {
  path: string;
  heading: string;
}
interface Metrics {
  r1: number;
  r5: number;
  r10: number;
  mrr: number;
  ndcg10: number;
  p50Ms: number;
  p95Ms: number;
}

function readTitle(text: string, stem: string): { title: string; body: string } {
  let body = text;
  let title: string | null = null;
  const front = /^---\n([\s\S]*?)\n---\n?/.exec(body);
  if (front) {
    const meta = parseYaml(front[1]!) as { title?: unknown } | null;
    if (typeof meta?.title === 'string') title = meta.title;
    body = body.slice(front[0].length);
  }
  const h1 = /^# (.+)$/m.exec(body);
  if (h1) {
    title ??= h1[1]!.trim();
    body = body.slice(0, h1.index) + body.slice(h1.index + h1[0].length);
  }
  return { title: title ?? stem, body };
}

function loadChunks(kbDir: string, perSection: boolean): Chunk[] {
  const chunks: Chunk[] = [];
  const files = fs
    .readdirSync(kbDir)
    .filter((f) => f.endsWith('.md'))
    .sort();
  for (const file of files) {
    const { title, body } = readTitle(fs.readFileSync(path.join(kbDir, file), 'utf8'), file.slice(0, -3));
    const push = (heading: string, content: string) =>
      chunks.push({ id: chunks.length + 1, path: file, title, heading, content: content.trim() });
    if (!perSection) {
      push('', body);
      continue;
    }
    const sections = body.split(/^## /m);
    for (const section of sections.slice(1)) {
      const newline = section.indexOf('\n');
      push(
        section.slice(0, newline === -1 ? undefined : newline).trim(),
        newline === -1 ? '' : section.slice(newline),
      );
    }
  }
  return chunks;
}

function loadGolden(file: string): GoldenQuery[] {
  const doc = parseYaml(fs.readFileSync(file, 'utf8')) as { queries: GoldenQuery[] };
  return doc.queries.filter((q) => q.expected.length > 0);
}

/** One FTS5 table layout: tokenizer, whether text is pre-segmented, and where the document title goes. */
interface TableSpec {
  name: string;
  tokenize: string;
  segmented: boolean;
  /** Also put the title in the heading column, as a real chunker does for a file whose only heading is `# Title`. */
  titleAsHeading: boolean;
}

function buildTables(
  db: Database.Database,
  chunks: Chunk[],
  specs: TableSpec[],
): { segmentCharsPerSec: number } {
  db.exec('CREATE TABLE chunks(id INTEGER PRIMARY KEY, path TEXT, heading TEXT, context TEXT, content TEXT)');
  const insertChunk = db.prepare('INSERT INTO chunks VALUES (?, ?, ?, ?, ?)');
  let segmentedChars = 0;
  let segmentMs = 0;
  const segmented = new Map<number, [string, string, string, string]>();
  const started = performance.now();
  for (const c of chunks) {
    segmented.set(c.id, [
      segmentForIndex(c.heading),
      segmentForIndex(c.title),
      segmentForIndex(c.content),
      '',
    ]);
    segmentedChars += c.heading.length + c.title.length + c.content.length;
  }
  segmentMs = performance.now() - started;
  db.transaction(() => {
    for (const c of chunks) insertChunk.run(c.id, c.path, c.heading, c.title, c.content);
    for (const spec of specs) {
      db.exec(
        `CREATE VIRTUAL TABLE ${spec.name} USING fts5(heading, context, content, tokenize='${spec.tokenize}')`,
      );
      const insert = db.prepare(
        `INSERT INTO ${spec.name}(rowid, heading, context, content) VALUES (?, ?, ?, ?)`,
      );
      for (const c of chunks) {
        const [heading, title, content] = spec.segmented
          ? segmented.get(c.id)!
          : [c.heading, c.title, c.content];
        insert.run(c.id, spec.titleAsHeading && heading === '' ? title : heading, title, content);
      }
    }
  })();
  return { segmentCharsPerSec: segmentedChars / (segmentMs / 1000) };
}

type Weights = [number, number, number];

function runLeg(db: Database.Database, table: string, expression: string | null, weights: Weights): number[] {
  if (expression === null) return [];
  const sql = `SELECT rowid AS id FROM ${table} WHERE ${table} MATCH ? ORDER BY bm25(${table}, ?, ?, ?) LIMIT ?`;
  return (db.prepare(sql).all(expression, ...weights, POOL) as Array<{ id: number }>).map((r) => r.id);
}

/** Ids from `first`, then ids from `rest` not seen yet: the later legs fill slots but never reorder. */
function appendUnseen(first: number[], ...rest: number[][]): number[] {
  const out = [...first];
  const seen = new Set(first);
  for (const id of rest.flat()) {
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
  }
  return out;
}

function substringLeg(db: Database.Database, terms: string[]): number[] {
  const sql =
    'SELECT id FROM chunks WHERE content LIKE @p OR heading LIKE @p OR context LIKE @p LIMIT @limit';
  const statement = db.prepare(sql);
  return terms.flatMap((t) =>
    (statement.all({ p: `%${t}%`, limit: POOL }) as Array<{ id: number }>).map((r) => r.id),
  );
}

/** §7.3 of the reference: recall@k, reciprocal rank, and hit-driven greedy binary nDCG. */
function scoreQuery(hits: Hit[], expected: Expected[]) {
  const matches = (h: Hit, e: Expected) =>
    h.path === e.path &&
    (e.heading === undefined || h.heading.trim().toLowerCase() === e.heading.trim().toLowerCase());
  const recallAt = (k: number) =>
    expected.filter((e) => hits.slice(0, k).some((h) => matches(h, e))).length / expected.length;
  const firstHit = hits.findIndex((h) => expected.some((e) => matches(h, e)));
  const consumed = new Set<number>();
  let dcg = 0;
  hits.slice(0, 10).forEach((h, index) => {
    const order = expected
      .map((e, i) => ({ e, i }))
      .sort((a, b) => Number(b.e.heading !== undefined) - Number(a.e.heading !== undefined) || a.i - b.i);
    const entry = order.find(({ e, i }) => !consumed.has(i) && matches(h, e));
    if (entry) {
      consumed.add(entry.i);
      dcg += 1 / Math.log2(index + 2);
    }
  });
  let idcg = 0;
  for (let i = 1; i <= Math.min(expected.length, 10); i++) idcg += 1 / Math.log2(i + 1);
  return {
    r1: recallAt(1),
    r5: recallAt(5),
    r10: recallAt(10),
    rr: firstHit === -1 ? 0 : 1 / (firstHit + 1),
    ndcg: dcg / idcg,
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

type Variant = { name: string; run: (q: string) => number[] };

function evaluate(chunks: Chunk[], golden: GoldenQuery[], variant: Variant): Metrics {
  const byId = new Map(chunks.map((c) => [c.id, c]));
  const sums = { r1: 0, r5: 0, r10: 0, rr: 0, ndcg: 0 };
  const times: number[] = [];
  for (const q of golden) {
    const started = performance.now();
    const ids = variant.run(q.query).slice(0, LIMIT);
    times.push(performance.now() - started);
    const hits = ids.map((id) => byId.get(id)!).map((c) => ({ path: c.path, heading: c.heading }));
    const s = scoreQuery(hits, q.expected);
    sums.r1 += s.r1;
    sums.r5 += s.r5;
    sums.r10 += s.r10;
    sums.rr += s.rr;
    sums.ndcg += s.ndcg;
  }
  times.sort((a, b) => a - b);
  const n = golden.length;
  return {
    r1: sums.r1 / n,
    r5: sums.r5 / n,
    r10: sums.r10 / n,
    mrr: sums.rr / n,
    ndcg10: sums.ndcg / n,
    p50Ms: percentile(times, 0.5),
    p95Ms: percentile(times, 0.95),
  };
}

function buildVariants(db: Database.Database, docLevel: boolean): Variant[] {
  const std: Weights = [2, 1, 1];
  const tri = (q: string, w = std) => {
    const c = compileFtsQuery(q);
    return c.kind === 'query' ? runLeg(db, 'tri', c.expression, w) : [];
  };
  const words = (q: string, table = 'words', w = std, stop?: ReadonlySet<string>) => {
    const c = compileWordQuery(q, stop ? { stopWords: stop } : {});
    return c.kind === 'query' ? runLeg(db, table, c.expression, w) : [];
  };
  const rrf = (q: string, triWeight: number) =>
    fuseRrf(
      [
        { name: 'words', ids: words(q) },
        { name: 'tri', ids: tri(q), weight: triWeight },
      ],
      { k: RRF_K },
    ).map((f) => f.id);
  const shortTerms = (q: string) => {
    const c = compileFtsQuery(q);
    return c.kind === 'query' ? c.shortTerms : [];
  };
  // The proposed design: the word leg ranks; trigram and then the substring scan only fill empty slots.
  const fillOnlyIfShort = (q: string) => {
    let ids = words(q, 'words', std, QUERY_STOP_WORDS);
    if (ids.length < LIMIT) ids = appendUnseen(ids, tri(q));
    if (ids.length < LIMIT) ids = appendUnseen(ids, substringLeg(db, shortTerms(q)));
    return ids;
  };
  const variants: Variant[] = [
    { name: '1 trigram only', run: (q) => tri(q) },
    { name: '2 words porter', run: (q) => words(q) },
    { name: '2b words unicode61 (no porter)', run: (q) => words(q, 'words_plain') },
    { name: '2c words porter, query stop words', run: (q) => words(q, 'words', std, QUERY_STOP_WORDS) },
    { name: '3 RRF words+trigram k=60', run: (q) => rrf(q, 1) },
    { name: '4 words, trigram appended', run: (q) => appendUnseen(words(q), tri(q)) },
    { name: '4b 2c; trigram, substring only if < limit', run: (q) => fillOnlyIfShort(q) },
    { name: '5a RRF trigram weight 0.2', run: (q) => rrf(q, 0.2) },
    { name: '5b RRF trigram weight 0.5', run: (q) => rrf(q, 0.5) },
    {
      name: '5c words, trigram, substring',
      run: (q) => appendUnseen(words(q), tri(q), substringLeg(db, shortTerms(q))),
    },
    { name: '5d words weights 1/1/1', run: (q) => words(q, 'words', [1, 1, 1]) },
    { name: '5e words weights 2/2/1', run: (q) => words(q, 'words', [2, 2, 1]) },
  ];
  if (docLevel) {
    variants.push(
      { name: '5f words, title also heading', run: (q) => words(q, 'words_th') },
      { name: '5g 5f + query stop words', run: (q) => words(q, 'words_th', std, QUERY_STOP_WORDS) },
    );
  }
  return variants;
}

/**
 * How often the proposed word query (with stop words) cannot fill `limit` slots or the candidate pool, i.e. how
 * often the trigram leg would run at all under "fill only", and how often it then adds something.
 */
function measureWordShortfall(db: Database.Database, golden: GoldenQuery[]) {
  const counts = { underLimit: 0, underPool: 0, emptyWords: 0, trigramAddsToPool: 0 };
  for (const q of golden) {
    const words = compileWordQuery(q.query, { stopWords: QUERY_STOP_WORDS });
    const ids = words.kind === 'query' ? runLeg(db, 'words', words.expression, [2, 1, 1]) : [];
    if (ids.length === 0) counts.emptyWords++;
    if (ids.length < LIMIT) counts.underLimit++;
    if (ids.length >= POOL) continue;
    counts.underPool++;
    const tri = compileFtsQuery(q.query);
    const triIds = tri.kind === 'query' ? runLeg(db, 'tri', tri.expression, [2, 1, 1]) : [];
    if (appendUnseen(ids, triIds).length > ids.length) counts.trigramAddsToPool++;
  }
  return counts;
}

/** Cost of the bounded substring fallback (LIKE '%xx%', a table scan) for short CJK terms. */
function measureSubstring(db: Database.Database, golden: GoldenQuery[]) {
  const terms = new Set<string>();
  let queriesWithShortTerms = 0;
  for (const q of golden) {
    const c = compileFtsQuery(q.query);
    if (c.kind === 'query' && c.shortTerms.length > 0) {
      queriesWithShortTerms++;
      for (const t of c.shortTerms) terms.add(t);
    }
  }
  const statement = db.prepare(
    'SELECT id FROM chunks WHERE content LIKE @p OR heading LIKE @p OR context LIKE @p LIMIT @limit',
  );
  const times: number[] = [];
  for (const t of terms) {
    const started = performance.now();
    statement.all({ p: `%${t}%`, limit: POOL });
    times.push(performance.now() - started);
  }
  // Worst case: a term that occurs nowhere scans every row.
  const missTimes: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    statement.all({ p: '%鱶鰭%', limit: POOL });
    missTimes.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  missTimes.sort((a, b) => a - b);
  const bytes = (
    db.prepare('SELECT sum(length(CAST(content AS BLOB))) AS b FROM chunks').get() as { b: number }
  ).b;
  return {
    queriesWithShortTerms,
    distinctTerms: terms.size,
    p50Ms: percentile(times, 0.5),
    p95Ms: percentile(times, 0.95),
    fullScanP50Ms: percentile(missTimes, 0.5),
    contentMiB: bytes / 1024 / 1024,
  };
}

function fmt(n: number, digits = 3): string {
  return n.toFixed(digits);
}

function runDataset(name: DatasetName) {
  const spec = DATASETS[name];
  const dir = path.join(evalRoot, spec.dir);
  const kbDir = path.join(dir, 'kb');
  const goldenFile = path.join(dir, spec.golden);
  if (!fs.existsSync(kbDir) || !fs.existsSync(goldenFile)) {
    throw new Error(
      `dataset "${name}" not found at ${dir} (expected kb/ and ${spec.golden}); see ../shared/eval/README.md`,
    );
  }
  const chunks = loadChunks(kbDir, spec.perSection);
  const golden = loadGolden(goldenFile);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-lexq-'));
  const db = new Database(path.join(tmp, 'lexical.db'));
  try {
    db.pragma('journal_mode = WAL');
    const buildStarted = performance.now();
    const tables: TableSpec[] = [
      {
        name: 'tri',
        tokenize: 'trigram remove_diacritics 1 case_sensitive 0',
        segmented: false,
        titleAsHeading: false,
      },
      {
        name: 'words',
        tokenize: 'porter unicode61 remove_diacritics 2',
        segmented: true,
        titleAsHeading: false,
      },
      {
        name: 'words_plain',
        tokenize: 'unicode61 remove_diacritics 2',
        segmented: true,
        titleAsHeading: false,
      },
    ];
    if (!spec.perSection) {
      tables.push({
        name: 'words_th',
        tokenize: 'porter unicode61 remove_diacritics 2',
        segmented: true,
        titleAsHeading: true,
      });
    }
    const { segmentCharsPerSec } = buildTables(db, chunks, tables);
    const buildMs = performance.now() - buildStarted;
    const results: Record<string, Metrics> = {};
    for (const variant of buildVariants(db, !spec.perSection))
      results[variant.name] = evaluate(chunks, golden, variant);
    const substring = measureSubstring(db, golden);
    const shortfall = measureWordShortfall(db, golden);
    return {
      dataset: name,
      chunks: chunks.length,
      queries: golden.length,
      buildMs,
      segmentCharsPerSec,
      results,
      substring,
      shortfall,
    };
  } finally {
    db.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function printReport(report: ReturnType<typeof runDataset>): void {
  const lines = [
    `\n## ${report.dataset}: ${report.chunks} chunks, ${report.queries} queries, limit ${LIMIT}, pool ${POOL}, ` +
      `built in ${fmt(report.buildMs / 1000, 1)} s; Intl.Segmenter ${fmt(report.segmentCharsPerSec / 1e6, 2)} M chars/s`,
    `reference: ${DATASETS[report.dataset].reference}`,
    '| variant | R@1 | R@5 | R@10 | MRR | nDCG@10 | p50 ms | p95 ms |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const [name, m] of Object.entries(report.results)) {
    lines.push(
      `| ${name} | ${fmt(m.r1)} | ${fmt(m.r5)} | ${fmt(m.r10)} | ${fmt(m.mrr)} | ${fmt(m.ndcg10)} | ${fmt(m.p50Ms, 2)} | ${fmt(m.p95Ms, 2)} |`,
    );
  }
  const s = report.substring;
  lines.push(
    `substring fallback (LIKE over ${fmt(s.contentMiB, 1)} MiB): ${s.queriesWithShortTerms} queries have short CJK terms, ` +
      `${s.distinctTerms} distinct; per term p50 ${fmt(s.p50Ms, 2)} ms, p95 ${fmt(s.p95Ms, 2)} ms; ` +
      `miss (full scan) p50 ${fmt(s.fullScanP50Ms, 2)} ms`,
  );
  const f = report.shortfall;
  lines.push(
    `word leg (stop words) under ${LIMIT} results: ${f.underLimit} queries (${f.emptyWords} empty); ` +
      `under the ${POOL}-candidate pool: ${f.underPool}, of which trigram adds candidates to ${f.trigramAddsToPool}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

function main(): void {
  const index = process.argv.indexOf('--dataset');
  const choice = index === -1 ? 'all' : process.argv[index + 1];
  const names: DatasetName[] =
    choice === 'all'
      ? (Object.keys(DATASETS) as DatasetName[])
      : choice && choice in DATASETS
        ? [choice as DatasetName]
        : [];
  if (names.length === 0) {
    process.stderr.write(
      `unknown --dataset "${choice}"; use one of ${Object.keys(DATASETS).join(', ')} or all\n`,
    );
    process.exitCode = 2;
    return;
  }
  if (!fs.existsSync(evalRoot)) {
    process.stderr.write(
      `eval datasets not found at ${evalRoot}; they live beside the repo in ../shared/eval\n`,
    );
    process.exitCode = 1;
    return;
  }
  const outFile = path.join(repoRoot, 'bench/results/lexical-quality.json');
  const previous = fs.existsSync(outFile)
    ? (JSON.parse(fs.readFileSync(outFile, 'utf8')) as Record<string, unknown>)
    : {};
  for (const name of names) {
    try {
      const report = runDataset(name);
      printReport(report);
      previous[name] = { ...report, node: process.version, measuredAt: new Date().toISOString() };
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n`);
      process.exitCode = 1;
    }
  }
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile, `${JSON.stringify(previous, null, 2)}\n`);
  process.stdout.write(`\nwrote ${path.relative(repoRoot, outFile)}\n`);
}

main();
