// One measurement pass of eval: every golden query through the search pipeline of one row, scored, with each
// leg failure counted (a failed leg means the numbers measure less than they claim).

import { GrooveError } from '../../errors.js';
import type { QueryBudgetRecall } from '../../measure/budget-recall.js';
import { countLegFailures, type LegFailure } from '../../measure/eval-degradation.js';
import { computeQueryMetrics } from '../../measure/eval-metrics.js';
import { computeExtraQueryMetrics } from '../../measure/eval-metrics-extra.js';
import type { QueryResult } from '../../measure/eval-run.js';
import type { LearnedSignals } from '../../rank/learned-signals.js';
import type { LegReport } from '../../types.js';
import type { GoldenQuery } from '../golden/index.js';
import type { SearchOptions, SearchResponse } from '../search/index.js';
import { type EvalBudgets, measureBudgets } from './eval-budget.js';
import type { EffectivePipeline } from './eval-rows.js';

export interface RowMeasurement {
  perQuery: QueryResult[];
  /** The min_confidence the row's searches ran with (what low_confidence compared against). */
  minConfidence: number | null;
  legFailures: LegFailure[];
  /** With `budgets`: each query's recall at every token budget, in query order. */
  budget?: { expected: GoldenQuery['expected']; budget: QueryBudgetRecall }[];
}

export interface MeasureRowOptions {
  pipeline: EffectivePipeline;
  fetchDepth: number;
  kValues: number[];
  /** What the row's learned stages learn from for one query (all judgments, or all but the query's own). */
  learnedFor: (query: GoldenQuery) => LearnedSignals;
  /** `--budget`: also answer each query within these token budgets (the decision row only). */
  budgets?: EvalBudgets;
}

/** The KB a hit of a cross-KB search came from (its `kb`), else nothing. */
function kbOf(hit: object): { kb?: string } {
  return 'kb' in hit && typeof hit.kb === 'string' ? { kb: hit.kb } : {};
}

/** Run every golden query through `search` with the row's pipeline, unfiltered, and score the top results. */
export async function measureRow(
  search: (request: unknown, options?: SearchOptions) => Promise<SearchResponse>,
  queries: readonly GoldenQuery[],
  options: MeasureRowOptions,
): Promise<RowMeasurement> {
  const { pipeline } = options;
  const learns = pipeline.boost !== null || pipeline.graph !== null;
  const legs = new Map<keyof LegReport, LegFailure>();
  const perQuery: QueryResult[] = [];
  const budget: NonNullable<RowMeasurement['budget']> = [];
  let minConfidence: number | null = null;
  for (const q of queries) {
    const request = {
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
      fold: pipeline.fold,
      boost: pipeline.boost !== null,
      graph: pipeline.graph !== null,
    };
    const response = await search(request, {
      ...(learns ? { learned: options.learnedFor(q) } : {}),
      ...(pipeline.skipLeg ? { skipLeg: pipeline.skipLeg } : {}),
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
    // A quote entry is judged on the text the hit returned; only such queries keep it (never saved).
    const keepText = q.expected.some((entry) => entry.quote !== undefined);
    if (options.budgets)
      budget.push({
        expected: q.expected,
        budget: await measureBudgets(response, q.expected, options.budgets),
      });
    minConfidence = response.settings.minConfidence;
    const topK = response.results.map((hit, i) => ({
      rank: i + 1,
      path: hit.path,
      heading: hit.heading,
      score: hit.score,
      ...kbOf(hit),
      ...(keepText ? { text: hit.content } : {}),
    }));
    perQuery.push({
      id: q.id,
      query: q.query,
      expected: q.expected,
      topK,
      metrics: {
        ...computeQueryMetrics(q.expected, topK, options.kValues),
        extra: computeExtraQueryMetrics(q.expected, topK, options.kValues),
      },
      confidence: { value: response.confidence, abstained: response.lowConfidence },
    });
  }
  return { perQuery, minConfidence, legFailures: [...legs.values()], ...(options.budgets ? { budget } : {}) };
}
