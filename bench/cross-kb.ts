// Cross-KB serving benchmark: one `groove serve` for ten registered KBs of N/10 chunks each against one `groove
// serve` for one KB holding all N chunks (the same files), both real processes searched over MCP (Streamable HTTP
// on 127.0.0.1) with the same queries, measured in the same run:
//   search p50/p95 (every served KB searched as one corpus) — baseline: the one-KB server
//   RSS after the searches and peak RSS                      — baseline: the one-KB server
//   same top-10 (KB name + path) per query                   — the cross-KB ranking equals one KB's
// Lexical-only by default; --hybrid indexes deterministic random unit vectors under a generated MiniLM-L6-shaped
// model's identity (every query runs the real ONNX model). Times are reported, never asserted.
// Run: npm run bench:kbs [-- --chunks 100000 --kbs 10 --queries 200 --hybrid --work-dir DIR]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { writeTestModel } from '../scripts/test-model/write-test-model.js';
import { createEmbedderFor, openKnowledgeBase, withDefaultIndexPath } from '../src/app/index.js';
import { resolveConfig } from '../src/config/resolve-config.js';
import type { Embedder } from '../src/types.js';
import { randomVectorEmbedder } from './bench-kb.js';
import { type ServeProcess, startServe } from './serve-process.js';
import { type BenchQuery, buildQueries, writeSyntheticKb } from './synthetic-kb.js';
import { summarise } from './vector-scan.js';

const { values } = parseArgs({
  options: {
    chunks: { type: 'string', default: '100000' },
    kbs: { type: 'string', default: '10' },
    queries: { type: 'string', default: '200' },
    hybrid: { type: 'boolean', default: false },
    'work-dir': { type: 'string' },
  },
});
const totalChunks = Number(values.chunks);
const kbCount = Number(values.kbs);
const queryCount = Number(values.queries);
const ALL = 'all';
const partName = (i: number) => `k${i}`;

const work = values['work-dir'] ?? fs.mkdtempSync(path.join(os.tmpdir(), 'groove-bench-kbs-'));
const home = path.join(work, 'home');
const env = { GROOVE_HOME: home };

/** Ten part folders of synthetic notes, and one folder holding a copy of each part under its name. */
function writeKbs(): void {
  for (let i = 0; i < kbCount; i++) {
    const dir = path.join(work, 'parts', partName(i));
    writeSyntheticKb({ dir, chunks: Math.round(totalChunks / kbCount), seed: 1000 + i });
    fs.cpSync(dir, path.join(work, ALL, partName(i)), { recursive: true });
  }
}

function writeRegistry(): void {
  const entries = [[ALL, path.join(work, ALL)]];
  for (let i = 0; i < kbCount; i++) entries.push([partName(i), path.join(work, 'parts', partName(i))]);
  const model = values.hybrid ? '' : 'model = "none"\n';
  const text = entries.map(([name, dir]) => `[kb.${name}]\npath = ${JSON.stringify(dir)}\n${model}`);
  fs.mkdirSync(path.join(home, 'config'), { recursive: true });
  fs.writeFileSync(path.join(home, 'config', 'kbs.toml'), text.join('\n'));
}

async function indexKb(name: string, modelDir: string | null, real: Embedder | null): Promise<number> {
  const config = resolveConfig({
    cwd: work,
    env: { ...env, GROOVE_OFFLINE: '1' },
    kb: name,
    overrides: modelDir ? { modelDir } : {},
  });
  const kb = openKnowledgeBase(
    withDefaultIndexPath(config),
    real ? { createEmbedder: async () => randomVectorEmbedder(real) } : {},
  );
  const summary = await kb.index();
  await kb.close();
  return summary.chunks;
}

/** The query's wire form; path globs of the one-KB server look one folder deeper (`k3/engineering/…`). */
function wireArguments(query: BenchQuery, deeper: boolean): Record<string, unknown> {
  const r = query.request as Record<string, unknown>;
  const out: Record<string, unknown> = { query: r.query, limit: 10 };
  if (r.tagsAny) out.tags_any = r.tagsAny;
  if (r.dateFrom) out.date_from = r.dateFrom;
  // A category is a note's first folder, one level down in the one-KB server: asked as that folder's glob.
  const globs = [
    ...((r.pathGlobs as string[] | undefined) ?? []),
    ...(r.category ? [`${r.category}/**`] : []),
  ];
  if (globs.length > 0) out.path_globs = globs.map((glob) => (deeper ? `k*/${glob}` : glob));
  return out;
}

/** "kb/path (score)" → score text. */
const scoreOf = (hit: string) => hit.slice(hit.lastIndexOf('(') + 1, -1);

/**
 * Whether two top-k lists hold the same scores rank by rank and the same hits within every group of equal
 * scores (the last group may be cut by k, so only its scores must agree).
 */
function sameUpToTies(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length || a.some((hit, rank) => scoreOf(hit) !== scoreOf(b[rank]!))) return false;
  const lastScore = scoreOf(a[a.length - 1] ?? '()');
  const group = (list: readonly string[], score: string) =>
    list
      .filter((hit) => scoreOf(hit) === score)
      .sort()
      .join('\n');
  return [...new Set(a.map(scoreOf))].every(
    (score) => score === lastScore || group(a, score) === group(b, score),
  );
}

interface ServeRun {
  p50: number;
  p95: number;
  rssMb: number;
  peakMb: number;
  /** Per query, the hits in order as `KB/path (score)`. */
  tops: string[][];
}

async function measure(serve: ServeProcess, queries: BenchQuery[], deeper: boolean): Promise<ServeRun> {
  const client = new Client({ name: 'bench-kbs', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
  const search = async (query: BenchQuery) => {
    const result = await client.callTool({ name: 'search', arguments: wireArguments(query, deeper) });
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    if (result.isError) throw new Error(`search failed: ${text}`);
    return JSON.parse(text) as { results: { path: string; kb?: string; score: number }[] };
  };
  for (const query of queries.slice(0, 20)) await search(query);
  const ms: number[] = [];
  const tops: string[][] = [];
  for (const query of queries) {
    const started = performance.now();
    const answer = await search(query);
    ms.push(performance.now() - started);
    tops.push(
      answer.results.map((hit) => `${deeper ? hit.path : `${hit.kb}/${hit.path}`} (${hit.score.toFixed(6)})`),
    );
  }
  await client.close();
  const memory = serve.memory() ?? { rssMb: Number.NaN, peakMb: Number.NaN };
  const { median, p95 } = summarise(ms);
  return { p50: median, p95, ...memory, tops };
}

async function main(): Promise<void> {
  const load = () => os.loadavg()[0]!.toFixed(2);
  console.log(
    `work folder ${work}; ${totalChunks} chunks, ${kbCount} KBs, ${values.hybrid ? 'hybrid' : 'lexical'}`,
  );
  if (!fs.existsSync(path.join(work, ALL))) writeKbs();
  writeRegistry();
  const modelDir = values.hybrid
    ? writeTestModel({ kind: 'embed', shape: 'minilm-l6', outDir: path.join(work, 'model') }).dir
    : null;
  const real = modelDir
    ? await createEmbedderFor(
        resolveConfig({ cwd: work, env: { ...env, GROOVE_OFFLINE: '1' }, kb: ALL, overrides: { modelDir } }),
      )
    : null;
  const names = [ALL, ...Array.from({ length: kbCount }, (_, i) => partName(i))];
  for (const name of names) {
    const started = performance.now();
    const chunks = await indexKb(name, modelDir, real);
    console.log(`index ${name}: ${chunks} chunks, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  await real?.close();
  const queries = buildQueries(queryCount);
  const serveWith = (kbNames: string[]) =>
    startServe({ kbNames, env, modelDir, watch: false, startTimeoutMs: 600_000 });
  const runs: Record<string, ServeRun> = {};
  for (const [label, kbNames, deeper] of [
    ['one KB', [ALL], true],
    [`${kbCount} KBs`, names.slice(1), false],
  ] as const) {
    const serve = await serveWith([...kbNames]);
    try {
      console.log(`${label}: load before ${load()}`);
      runs[label] = await measure(serve, queries, deeper);
      console.log(`${label}: load after ${load()}`);
    } finally {
      await serve.stop();
    }
  }
  const one = runs['one KB']!;
  const many = runs[`${kbCount} KBs`]!;
  const differing = queries.flatMap((query, i) =>
    JSON.stringify(one.tops[i]) === JSON.stringify(many.tops[i])
      ? []
      : [{ query, one: one.tops[i]!, many: many.tops[i]! }],
  );
  const row = (label: string, r: ServeRun) =>
    `${label.padEnd(8)} p50 ${r.p50.toFixed(1)} ms  p95 ${r.p95.toFixed(1)} ms  RSS ${r.rssMb.toFixed(0)} MB  peak ${r.peakMb.toFixed(0)} MB`;
  console.log(row('one KB', one));
  console.log(row(`${kbCount} KBs`, many));
  console.log(
    `ratio    p50 ×${(many.p50 / one.p50).toFixed(2)}  p95 ×${(many.p95 / one.p95).toFixed(2)}  RSS ×${(many.rssMb / one.rssMb).toFixed(2)}  peak ×${(many.peakMb / one.peakMb).toFixed(2)}`,
  );
  const tiesOnly = differing.filter(({ one: a, many: b }) => sameUpToTies(a, b)).length;
  console.log(
    `same top-10 (KB + path, in order): ${queries.length - differing.length} of ${queries.length} queries; ` +
      `${tiesOnly} more differ only in the order of hits with equal scores, ${differing.length - tiesOnly} otherwise`,
  );
  for (const { query, one: a, many: b } of differing.slice(0, 5)) {
    const at = a.findIndex((hit, rank) => hit !== b[rank]);
    console.log(`  differs at rank ${at + 1} for ${JSON.stringify(query.request)}: ${a[at]} vs ${b[at]}`);
  }
  if (!values['work-dir']) fs.rmSync(work, { recursive: true, force: true });
}

await main();
