// The measuring half of `groove tune`: per golden query, the pre-flight (candidate legs at the default weights,
// the FTS diagnostics) and the sweep (one lexical leg per bm25 weight set, rrf_k applied in memory with the
// pipeline's own fusion, every metric of every condition written into one table).
import { computeQueryMetrics, type RankedHit } from '../../measure/eval-metrics.js';
import { legBroke } from '../../measure/leg-health.js';
import { countScoreTies, describeInsensitive, rankingsDiffer } from '../../measure/tune-diagnostics.js';
import {
  CONTENT_HEAVY_WEIGHT_SET,
  DEFAULT_CONDITION,
  DEFAULT_K_INDEX,
  HEADING_HEAVY_WEIGHT_SET,
  PRIMARY_K,
  RRF_K_VALUES,
  WEIGHT_SET_COUNT,
  weightSetValues,
} from '../../measure/tune-grid.js';
import type { MetricTable } from '../../measure/tune-metric-table.js';
import { fuseRrf } from '../../rank/fuse-rrf.js';
import type { SearchReader } from '../../store/chunk-search.js';
import type { GoldenQuery } from '../golden/index.js';
import {
  type CompiledLegQuery,
  type PostingsCache,
  type ReadSnapshot,
  runLexicalLeg,
  runVectorLeg,
  sweepLexicalLeg,
} from '../search/index.js';

/** Pre-flight facts about one golden query: what the report's `Query diagnostics` section prints. */
export interface QueryDiagnostics {
  id: string;
  /** Lexical-leg candidates at the default weights (at most the pool). */
  ftsCandidates: number;
  /** Chunks matching the query on either FTS table, unlimited. */
  ftsTotalMatches: number;
  /** Chunks in both legs' candidate lists; 0 means rrf_k cannot move the ranking. */
  vecFtsOverlap: number;
  /** The top `limit` moved between the heading-heavy and the content-heavy weight extremes (at k = 60). */
  bm25Sensitive: boolean;
  /** The union covers at least half of all chunks, where FTS5 clamps idf. */
  idfClamped: boolean;
  /** Adjacent equal (f32) fused scores in the top `limit` at the default condition. */
  rrfTies: number;
  /** At least 2 FTS candidates: the only queries the weights can reorder. */
  effective: boolean;
  /** Why a query is not effective, in words; null when it is. */
  insensitiveReason: string | null;
}

export interface PreparedQuery {
  golden: GoldenQuery;
  compiled: Extract<CompiledLegQuery, { kind: 'query' }>;
  vectorIds: number[];
  defaultLexicalIds: number[];
  diagnostics: QueryDiagnostics;
  /** A failed leg, e.g. `lexical: <message>`; the query is still measured with what answered. */
  legFailure: string | null;
}

const DEFAULT_WEIGHT_SET = DEFAULT_CONDITION % WEIGHT_SET_COUNT;

/** Pre-flight for one query: both candidate legs at the default weights, the unlimited match count, the overlap. */
export async function prepareQuery(
  snapshot: ReadSnapshot,
  golden: GoldenQuery,
  options: { candidatePool: number; chunkTotal: number; compiled: PreparedQuery['compiled'] },
): Promise<PreparedQuery> {
  const { compiled, candidatePool: pool } = options;
  const { reader } = snapshot;
  const negative = compiled.trigram.negativeExpression;
  const excluded = negative ? reader.findExcludedChunkIds(negative) : new Set<number>();
  const vector = await runVectorLeg(snapshot, compiled.trigram.positiveText, {
    pool,
    minQuality: 0,
    documentIds: null,
    excluded,
  });
  const lexical = runLexicalLeg(reader, compiled, {
    weights: weightSetValues(DEFAULT_WEIGHT_SET),
    pool,
    minQuality: 0,
    documentIds: null,
    words: snapshot.words,
  });
  const parts = [
    ...(compiled.words.expression
      ? [{ table: 'fts_words' as const, expression: compiled.words.expression }]
      : []),
    ...(compiled.trigram.expression
      ? [{ table: 'fts_chunks' as const, expression: compiled.trigram.expression }]
      : []),
  ];
  const totalMatches = legBroke(lexical.health) ? 0 : reader.countFtsUnion(parts);
  const lexicalSet = new Set(lexical.ids);
  const failures = [
    ...(legBroke(lexical.health) ? [`lexical: ${lexical.health.error}`] : []),
    ...(legBroke(vector.health) ? [`vector: ${vector.health.error}`] : []),
  ];
  return {
    golden,
    compiled,
    vectorIds: vector.ids,
    defaultLexicalIds: lexical.ids,
    diagnostics: {
      id: golden.id,
      ftsCandidates: lexical.ids.length,
      ftsTotalMatches: totalMatches,
      vecFtsOverlap: vector.ids.filter((id) => lexicalSet.has(id)).length,
      bm25Sensitive: false,
      idfClamped: options.chunkTotal > 0 && totalMatches * 2 >= options.chunkTotal,
      rrfTies: 0,
      effective: lexical.ids.length >= 2,
      insensitiveReason: describeInsensitive(compiled, lexical.ids.length),
    },
    legFailure: failures.length > 0 ? failures.join('; ') : null,
  };
}

type HitSource = Pick<RankedHit, 'path' | 'heading' | 'text'>;

/**
 * Sweep one query over the 384 conditions into row `queryIndex` of `table`: the lexical leg under each of the
 * 64 weight sets (see lexical-sweep.ts), each fused with the vector leg at the 6 rrf_k values by the pipeline's
 * own fuseRrf. Identical lexical lists share their fused metrics. Fills the diagnostics that need the sweep (bm25_sensitive, rrf_ties).
 */
export function sweepQuery(
  snapshot: ReadSnapshot,
  prepared: PreparedQuery,
  options: {
    queryIndex: number;
    table: MetricTable;
    limit: number;
    candidatePool: number;
    hits: Map<number, HitSource>;
    /** Null when the postings could not be opened: every weight set then goes through SQL. */
    postings: PostingsCache | null;
    /** Keep each hit's text: the golden set has `quote` entries, judged on it. */
    keepText: boolean;
  },
): { lexicalPath: 'memory' | 'sql' } {
  const { table, limit, queryIndex } = options;
  const sweep = sweepLexicalLeg({
    reader: snapshot.reader,
    postings: options.postings,
    compiled: prepared.compiled,
    candidatePool: options.candidatePool,
    defaultIds: prepared.defaultLexicalIds,
    defaultWeightSet: DEFAULT_WEIGHT_SET,
  });
  const lexicalLists = sweep.lists;
  loadHitSources(snapshot.reader, [...lexicalLists.flat(), ...prepared.vectorIds], options);

  const fusedByList = new Map<string, { id: number; score: number }[][]>();
  for (let w = 0; w < WEIGHT_SET_COUNT; w++) {
    const ids = lexicalLists[w]!;
    const key = ids.join(',');
    let perK = fusedByList.get(key);
    if (!perK) {
      perK = RRF_K_VALUES.map((k) =>
        fuseRrf(
          [
            { name: 'lexical', ids },
            { name: 'vector', ids: prepared.vectorIds },
          ],
          { k },
        )
          .slice(0, limit)
          .map((f) => ({ id: f.id, score: f.score })),
      );
      fusedByList.set(key, perK);
    }
    perK.forEach((top, kIndex) => {
      const hits = top.flatMap((entry) => {
        const source = options.hits.get(entry.id);
        return source ? [{ ...source, score: entry.score }] : [];
      });
      const ranked = hits.map((hit, i) => ({ ...hit, rank: i + 1 }));
      const metrics = computeQueryMetrics(prepared.golden.expected, ranked, table.kValues);
      const cell = (kIndex * WEIGHT_SET_COUNT + w) * table.queryCount + queryIndex;
      table.primary[cell] = metrics.ndcgAtK[PRIMARY_K] ?? 0;
      for (const k of table.kValues) table.recallAtK.get(k)![cell] = metrics.recallAtK[k] ?? 0;
      table.reciprocalRank[cell] = metrics.reciprocalRank;
    });
  }

  const topAtDefaultK = (w: number) =>
    fusedByList.get(lexicalLists[w]!.join(','))![DEFAULT_K_INDEX]!.map((entry) => entry.id);
  const heading = topAtDefaultK(HEADING_HEAVY_WEIGHT_SET);
  const content = topAtDefaultK(CONTENT_HEAVY_WEIGHT_SET);
  prepared.diagnostics.bm25Sensitive = rankingsDiffer(heading, content);
  const atDefault = fusedByList.get(lexicalLists[DEFAULT_WEIGHT_SET]!.join(','))![DEFAULT_K_INDEX]!;
  prepared.diagnostics.rrfTies = countScoreTies(atDefault);
  return { lexicalPath: sweep.path };
}

/** Path and heading (and text, when kept) of every id not seen yet, in one read. */
function loadHitSources(
  reader: SearchReader,
  ids: number[],
  options: { hits: Map<number, HitSource>; keepText: boolean },
): void {
  const { hits, keepText } = options;
  const missing = [...new Set(ids)].filter((id) => !hits.has(id));
  for (const record of reader.readChunkRecords(missing)) {
    hits.set(record.id, {
      path: record.path,
      heading: record.heading,
      ...(keepText ? { text: record.content } : {}),
    });
  }
}
