// The lenient reader of stored eval runs (the history file, a `--compare` JSON file): every field has a default,
// so a run written by an older version never costs its baseline. The wire form it reads is eval-run-json.ts's.

import * as z from 'zod';
import type { EvalFingerprint } from '../../measure/eval-fingerprint.js';
import type { AggregateMetrics, MetricsByK, QueryMetrics } from '../../measure/eval-metrics.js';
import type { EvalRun } from '../../measure/eval-run.js';
import { abstentionFromJson, queryConfidenceFromJson } from './abstention-json.js';

// The reader's schema is built on first use: constructing it costs milliseconds that a command reading no eval run
// (a one-shot search) should not pay.
function buildRunSchema() {
  /** A metric map; JSON has no NaN, so a stored null reads back as NaN (and is then skipped by comparisons). */
  const metricsByK = z
    .record(z.string(), z.number().nullable())
    .default({})
    .transform((record) => {
      const out: MetricsByK = {};
      for (const [k, v] of Object.entries(record)) out[Number(k)] = v ?? Number.NaN;
      return out;
    });
  const metric = z
    .number()
    .nullable()
    .default(0)
    .transform((v) => v ?? Number.NaN);

  // The extra metrics are optional: a run recorded before they existed has none, and stays without them.
  const optionalByK = z
    .record(z.string(), z.number().nullable())
    .optional()
    .transform((record) => {
      if (!record) return undefined;
      const out: MetricsByK = {};
      for (const [k, v] of Object.entries(record)) out[Number(k)] = v ?? Number.NaN;
      return out;
    });
  const optionalMetric = z
    .number()
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : (v ?? Number.NaN)));

  const fingerprintSchema = z.object({
    model: z.string().default(''),
    reranker: z.string().nullable().default(null),
    limit: z.number().default(0),
    k_values: z.array(z.number()).default([]),
    golden_hash: z.string().default(''),
    // Runs from before these fields existed were computed by version 1 of each rule.
    metric_version: z.number().default(1),
    fts_query_version: z.number().default(1),
    mmr: z.object({ lambda: z.number(), same_doc_penalty: z.number() }).optional(),
    fold: z.string().optional(),
    parent_retriever: z
      .object({ whole_doc_threshold_tokens: z.number(), max_expanded_tokens: z.number() })
      .optional(),
    fusion: z
      .object({
        rrf_k: z.number(),
        bm25_heading_weight: z.number(),
        bm25_context_weight: z.number(),
        bm25_content_weight: z.number(),
      })
      .optional(),
    boost: z
      .object({
        strength: z.number(),
        half_life_days: z.number(),
        min_judgments: z.number(),
        horizon_days: z.number(),
      })
      .optional(),
    graph: z
      .object({
        hops: z.number(),
        max_added_per_hit: z.number(),
        weight: z.number(),
        links: z.boolean(),
        co_helpful: z.boolean(),
      })
      .optional(),
    honest: z.boolean().optional(),
    judgments: z.object({ serves: z.number(), items: z.number() }).optional(),
    context: z.object({ mode: z.string() }).optional(),
    degraded: z.array(z.string()).optional(),
    kbs: z.array(z.string()).optional(),
  });

  const hitSchema = z.object({
    rank: z.number(),
    path: z.string(),
    heading: z.string().nullable().default(null),
    score: z.number().nullable().default(0),
    kb: z.string().optional(),
  });
  const expectedSchema = z.object({
    path: z.string(),
    heading: z.string().nullable().default(null),
    kb: z.string().optional(),
    quote: z.string().optional(),
  });

  return z.object({
    timestamp: z.string().default(''),
    fingerprint: fingerprintSchema.prefault({}),
    corpus: z
      .object({ documents: z.number(), chunks: z.number(), digest: z.string() })
      .nullable()
      .default(null),
    aggregate: z
      .object({
        recall_at_k: metricsByK,
        mrr: metric,
        ndcg_at_k: metricsByK,
        precision_at_k: optionalByK,
        map_at_k: optionalByK,
        hit_rate_at_k: optionalByK,
        r_precision: optionalMetric,
        judged_at_k: optionalByK,
        query_count: z.number().default(0),
      })
      .prefault({}),
    per_query: z
      .array(
        z.object({
          id: z.string(),
          query: z.string().default(''),
          expected: z.array(expectedSchema).default([]),
          top_k: z.array(hitSchema).default([]),
          metrics: z
            .object({
              recall_at_k: metricsByK,
              reciprocal_rank: metric,
              ndcg_at_k: metricsByK,
              precision_at_k: optionalByK,
              average_precision_at_k: optionalByK,
              hit_at_k: optionalByK,
              r_precision: optionalMetric,
            })
            .prefault({}),
          confidence: z.unknown().optional(),
        }),
      )
      .default([]),
    findings: z
      .array(
        z.object({
          check: z.literal('golden-queries-quoted'),
          path: z.string(),
          quoted: z.array(
            z.object({ query_id: z.string(), rank_in_top_k: z.number().nullable().default(null) }),
          ),
        }),
      )
      .default([]),
    // `--format json` writes `row: null` for a plain run; the history leaves it out.
    row: z.string().nullable().optional(),
    degradation: z.array(z.object({ leg: z.string(), reason: z.string() })).optional(),
    abstention: z.unknown().optional(),
  });
}

let runSchema: ReturnType<typeof buildRunSchema> | null = null;

/** Read one stored run; `null` when its shape is wrong (a type mismatch, not a missing field). */
export function evalRunFromJson(value: unknown): EvalRun | null {
  runSchema ??= buildRunSchema();
  const parsed = runSchema.safeParse(value);
  if (!parsed.success) return null;
  const r = parsed.data;
  const f = r.fingerprint;
  const fingerprint: EvalFingerprint = {
    model: f.model,
    reranker: f.reranker,
    limit: f.limit,
    kValues: f.k_values,
    goldenHash: f.golden_hash,
    metricVersion: f.metric_version,
    ftsQueryVersion: f.fts_query_version,
    ...(f.mmr ? { mmr: { lambda: f.mmr.lambda, sameDocPenalty: f.mmr.same_doc_penalty } } : {}),
    ...(f.fold ? { fold: f.fold } : {}),
    ...(f.parent_retriever
      ? {
          parentRetriever: {
            wholeDocThresholdTokens: f.parent_retriever.whole_doc_threshold_tokens,
            maxExpandedTokens: f.parent_retriever.max_expanded_tokens,
          },
        }
      : {}),
    ...(f.fusion
      ? {
          fusion: {
            rrfK: f.fusion.rrf_k,
            bm25HeadingWeight: f.fusion.bm25_heading_weight,
            bm25ContextWeight: f.fusion.bm25_context_weight,
            bm25ContentWeight: f.fusion.bm25_content_weight,
          },
        }
      : {}),
    ...learnedFingerprintFromJson(f),
    ...(f.context ? { context: { mode: f.context.mode } } : {}),
    ...(f.degraded && f.degraded.length > 0 ? { degraded: f.degraded } : {}),
    ...(f.kbs && f.kbs.length > 0 ? { kbs: f.kbs } : {}),
  };
  return {
    timestamp: r.timestamp,
    fingerprint,
    corpus: r.corpus,
    aggregate: {
      recallAtK: r.aggregate.recall_at_k,
      mrr: r.aggregate.mrr,
      ndcgAtK: r.aggregate.ndcg_at_k,
      ...extraAggregateFromJson(r.aggregate),
      ...(r.aggregate.judged_at_k ? { judgedAtK: r.aggregate.judged_at_k } : {}),
      queryCount: r.aggregate.query_count,
    },
    perQuery: r.per_query.map((q) => ({
      id: q.id,
      query: q.query,
      expected: q.expected.map(({ kb, quote, ...entry }) => ({
        ...entry,
        ...(kb === undefined ? {} : { kb }),
        ...(quote === undefined ? {} : { quote }),
      })),
      topK: q.top_k.map((h) => ({
        rank: h.rank,
        path: h.path,
        heading: h.heading,
        score: h.score ?? 0,
        ...(h.kb === undefined ? {} : { kb: h.kb }),
      })),
      metrics: {
        recallAtK: q.metrics.recall_at_k,
        reciprocalRank: q.metrics.reciprocal_rank,
        ndcgAtK: q.metrics.ndcg_at_k,
        ...extraQueryFromJson(q.metrics),
      },
      ...queryConfidenceFromJson(q.confidence),
    })),
    findings: r.findings.map((x) => ({
      check: x.check,
      path: x.path,
      quoted: x.quoted.map((q) => ({ queryId: q.query_id, rankInTopK: q.rank_in_top_k })),
    })),
    ...(r.row === undefined || r.row === null ? {} : { row: r.row }),
    ...(r.degradation && r.degradation.length > 0 ? { degradation: r.degradation } : {}),
    ...abstentionFromJson(r.abstention),
  };
}

/** Present only when every extra metric is (a run from before they existed has none). */
function extraAggregateFromJson(a: {
  precision_at_k?: MetricsByK;
  map_at_k?: MetricsByK;
  hit_rate_at_k?: MetricsByK;
  r_precision?: number;
}): Pick<AggregateMetrics, 'extra'> {
  if (!a.precision_at_k || !a.map_at_k || !a.hit_rate_at_k || a.r_precision === undefined) return {};
  return {
    extra: {
      precisionAtK: a.precision_at_k,
      mapAtK: a.map_at_k,
      hitRateAtK: a.hit_rate_at_k,
      rPrecision: a.r_precision,
    },
  };
}

function extraQueryFromJson(m: {
  precision_at_k?: MetricsByK;
  average_precision_at_k?: MetricsByK;
  hit_at_k?: MetricsByK;
  r_precision?: number;
}): Pick<QueryMetrics, 'extra'> {
  if (!m.precision_at_k || !m.average_precision_at_k || !m.hit_at_k || m.r_precision === undefined) return {};
  return {
    extra: {
      precisionAtK: m.precision_at_k,
      averagePrecisionAtK: m.average_precision_at_k,
      hitAtK: m.hit_at_k,
      rPrecision: m.r_precision,
    },
  };
}

function learnedFingerprintFromJson(
  f: z.infer<ReturnType<typeof buildRunSchema>>['fingerprint'],
): Partial<EvalFingerprint> {
  return {
    ...(f.boost
      ? {
          boost: {
            strength: f.boost.strength,
            halfLifeDays: f.boost.half_life_days,
            minJudgments: f.boost.min_judgments,
            horizonDays: f.boost.horizon_days,
          },
        }
      : {}),
    ...(f.graph
      ? {
          graph: {
            hops: f.graph.hops,
            maxAddedPerHit: f.graph.max_added_per_hit,
            weight: f.graph.weight,
            links: f.graph.links,
            coHelpful: f.graph.co_helpful,
          },
        }
      : {}),
    ...(f.honest ? { honest: true } : {}),
    ...(f.judgments ? { judgments: { serves: f.judgments.serves, items: f.judgments.items } } : {}),
  };
}
