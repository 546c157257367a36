// The wire form of eval runs: snake_case, as the history file and `--format json` spell it (read back by
// eval-run-reader.ts).

import type { EvalFingerprint } from '../../measure/eval-fingerprint.js';
import type { AggregateMetrics, QueryMetrics } from '../../measure/eval-metrics.js';
import type { EvalRun, QuoteFinding } from '../../measure/eval-run.js';
import { abstentionToJson, queryConfidenceToJson } from './abstention-json.js';

type Json = Record<string, unknown>;

function learnedFingerprintToJson(f: EvalFingerprint): Json {
  return {
    ...(f.boost
      ? {
          boost: {
            strength: f.boost.strength,
            half_life_days: f.boost.halfLifeDays,
            min_judgments: f.boost.minJudgments,
            horizon_days: f.boost.horizonDays,
          },
        }
      : {}),
    ...(f.graph
      ? {
          graph: {
            hops: f.graph.hops,
            max_added_per_hit: f.graph.maxAddedPerHit,
            weight: f.graph.weight,
            links: f.graph.links,
            co_helpful: f.graph.coHelpful,
          },
        }
      : {}),
    ...(f.honest ? { honest: true } : {}),
    ...(f.judgments ? { judgments: { serves: f.judgments.serves, items: f.judgments.items } } : {}),
  };
}

export function fingerprintToJson(f: EvalFingerprint): Json {
  return {
    model: f.model,
    reranker: f.reranker,
    limit: f.limit,
    k_values: f.kValues,
    golden_hash: f.goldenHash,
    metric_version: f.metricVersion,
    fts_query_version: f.ftsQueryVersion,
    ...(f.mmr ? { mmr: { lambda: f.mmr.lambda, same_doc_penalty: f.mmr.sameDocPenalty } } : {}),
    ...(f.fold ? { fold: f.fold } : {}),
    ...(f.parentRetriever
      ? {
          parent_retriever: {
            whole_doc_threshold_tokens: f.parentRetriever.wholeDocThresholdTokens,
            max_expanded_tokens: f.parentRetriever.maxExpandedTokens,
          },
        }
      : {}),
    ...(f.fusion
      ? {
          fusion: {
            rrf_k: f.fusion.rrfK,
            bm25_heading_weight: f.fusion.bm25HeadingWeight,
            bm25_context_weight: f.fusion.bm25ContextWeight,
            bm25_content_weight: f.fusion.bm25ContentWeight,
          },
        }
      : {}),
    ...learnedFingerprintToJson(f),
    ...(f.context ? { context: { mode: f.context.mode } } : {}),
    ...(f.degraded && f.degraded.length > 0 ? { degraded: f.degraded } : {}),
    ...(f.kbs && f.kbs.length > 0 ? { kbs: f.kbs } : {}),
  };
}

export function aggregateToJson(a: AggregateMetrics): Json {
  return {
    recall_at_k: a.recallAtK,
    mrr: a.mrr,
    ndcg_at_k: a.ndcgAtK,
    ...(a.extra
      ? {
          precision_at_k: a.extra.precisionAtK,
          map_at_k: a.extra.mapAtK,
          hit_rate_at_k: a.extra.hitRateAtK,
          r_precision: a.extra.rPrecision,
        }
      : {}),
    ...(a.judgedAtK ? { judged_at_k: a.judgedAtK } : {}),
    query_count: a.queryCount,
  };
}

function queryMetricsToJson(m: QueryMetrics): Json {
  return {
    recall_at_k: m.recallAtK,
    reciprocal_rank: m.reciprocalRank,
    ndcg_at_k: m.ndcgAtK,
    ...(m.extra
      ? {
          precision_at_k: m.extra.precisionAtK,
          average_precision_at_k: m.extra.averagePrecisionAtK,
          hit_at_k: m.extra.hitAtK,
          r_precision: m.extra.rPrecision,
        }
      : {}),
  };
}

export function findingsToJson(findings: readonly QuoteFinding[]): Json[] {
  return findings.map((f) => ({
    check: f.check,
    path: f.path,
    quoted: f.quoted.map((q) => ({ query_id: q.queryId, rank_in_top_k: q.rankInTopK })),
  }));
}

/**
 * The stored form of a run. In the history file an empty `findings` and a missing `corpus` are left out;
 * `--format json` always carries `findings`, so "checked, nothing" differs from "never checked".
 */
export function evalRunToJson(run: EvalRun, options: { forHistory?: boolean } = {}): Json {
  const findings = findingsToJson(run.findings);
  return {
    timestamp: run.timestamp,
    fingerprint: fingerprintToJson(run.fingerprint),
    ...(run.corpus || !options.forHistory ? { corpus: run.corpus } : {}),
    aggregate: aggregateToJson(run.aggregate),
    per_query: run.perQuery.map((q) => ({
      id: q.id,
      query: q.query,
      expected: q.expected.map((e) => ({
        path: e.path,
        heading: e.heading,
        ...kbField(e.kb),
        ...(e.quote === undefined ? {} : { quote: e.quote }),
      })),
      top_k: q.topK.map((h) => ({
        rank: h.rank,
        path: h.path,
        heading: h.heading,
        score: h.score,
        ...kbField(h.kb),
      })),
      metrics: queryMetricsToJson(q.metrics),
      ...queryConfidenceToJson(q),
    })),
    ...(findings.length > 0 || !options.forHistory ? { findings } : {}),
    ...(run.row === undefined ? {} : { row: run.row }),
    ...(run.degradation && run.degradation.length > 0
      ? { degradation: run.degradation.map((d) => ({ leg: d.leg, reason: d.reason })) }
      : {}),
    ...(run.abstention ? { abstention: abstentionToJson(run.abstention) } : {}),
  };
}

/** `kb` of a cross-KB entry or hit; nothing for one KB, so one-KB runs are stored exactly as before. */
function kbField(kb: string | undefined): { kb?: string } {
  return kb === undefined ? {} : { kb };
}
