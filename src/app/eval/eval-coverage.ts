// How much of each row's top k the recorded judgments cover (judged@k, measure/eval-judged.ts): computed when the
// index holds any judgment, or when the golden set was built from feedback (then an empty store reads 0, which
// is the point: nothing returned can be credited beyond what was judged).

import { computeJudgedAtK, indexJudgedItems, meanJudgedAtK } from '../../measure/eval-judged.js';
import type { MetricsByK } from '../../measure/eval-metrics.js';
import type { QueryResult } from '../../measure/eval-run.js';
import type { JudgedServe } from '../../rank/counted-judgments.js';

export function judgedCoverage(
  serves: readonly JudgedServe[],
  perQuery: readonly QueryResult[],
  options: { kValues: readonly number[]; goldenSource: string | null },
): MetricsByK | null {
  const items = serves.flatMap((serve) => serve.items);
  if (items.length === 0 && options.goldenSource !== 'feedback') return null;
  const judged = indexJudgedItems(items);
  // The same queries as every other mean: those with at least one expected entry.
  const counted = perQuery.filter((q) => q.expected.length > 0);
  return meanJudgedAtK(
    counted.map((q) => computeJudgedAtK(q.topK, judged, options.kValues)),
    options.kValues,
  );
}
