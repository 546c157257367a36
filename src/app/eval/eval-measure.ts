// One measurement pass of eval: every golden query through the search pipeline of one row, scored, with each
// leg failure counted (a failed leg means the numbers measure less than they claim).
import { countLegFailures, type LegFailure } from '../../core/eval-degradation.js';
import { computeQueryMetrics } from '../../core/eval-metrics.js';
import type { QueryResult } from '../../core/eval-run.js';
import { GrooveError } from '../../errors.js';
import type { LegReport } from '../../types.js';
import type { GoldenQuery } from '../golden/index.js';
import type { SearchResponse } from '../search/index.js';
import type { EffectivePipeline } from './eval-rows.js';

export interface RowMeasurement {
  perQuery: QueryResult[];
  legFailures: LegFailure[];
}

/** Run every golden query through `search` with the row's pipeline, unfiltered, and score the top results. */
export async function measureRow(
  search: (request: unknown) => Promise<SearchResponse>,
  queries: readonly GoldenQuery[],
  options: { pipeline: EffectivePipeline; fetchDepth: number; kValues: number[] },
): Promise<RowMeasurement> {
  const { pipeline } = options;
  const legs = new Map<keyof LegReport, LegFailure>();
  const perQuery: QueryResult[] = [];
  for (const q of queries) {
    const response = await search({
      query: q.query,
      limit: options.fetchDepth,
      // Eval measures retrieval unfiltered: no quality floor, no filters.
      includeLowQuality: true,
      rerank: pipeline.reranker !== null,
      mmr: pipeline.mmr !== null,
      ...(pipeline.mmr
        ? { mmrLambda: pipeline.mmr.lambda, mmrSameDocPenalty: pipeline.mmr.sameDocPenalty }
        : {}),
      parentRetriever: pipeline.parentRetriever !== null,
    });
    if (pipeline.reranker !== null && response.legs.reranker.status === 'disabled') {
      throw new GrooveError(
        'MODEL_UNAVAILABLE',
        `reranker "${pipeline.reranker}" was asked for but is not loaded`,
        {
          hint: 'eval measures exactly the reranker given; pass --reranker none to measure without one',
        },
      );
    }
    countLegFailures(legs, response.legs);
    const topK = response.results.map((hit, i) => ({
      rank: i + 1,
      path: hit.path,
      heading: hit.heading,
      score: hit.score,
    }));
    perQuery.push({
      id: q.id,
      query: q.query,
      expected: q.expected,
      topK,
      metrics: computeQueryMetrics(q.expected, topK, options.kValues),
    });
  }
  return { perQuery, legFailures: [...legs.values()] };
}
