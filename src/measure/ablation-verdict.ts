// Stage ablation's verdict: what switching one stage off did to the gated metrics (recall@k, MRR, nDCG@k),
// read only from the paired 95% intervals of (without the stage − full pipeline). A mean that moved inside an
// interval that still holds 0 decides nothing.
import { isGatedMetric, type PairedRunComparison } from './eval-paired.js';

/**
 * `helps`: some gated metric's interval lies wholly below 0 without the stage, and none wholly above; `hurts`:
 * the reverse; `mixed`: both happen (on different metrics); `no-measurable-effect`: every interval holds 0.
 */
export type AblationVerdict = 'helps' | 'hurts' | 'mixed' | 'no-measurable-effect';

export interface AblationJudgement {
  verdict: AblationVerdict;
  /** Gated metrics that fell with the stage off (the stage helps them), in report order. */
  helpsOn: string[];
  /** Gated metrics that rose with the stage off (the stage hurts them), in report order. */
  hurtsOn: string[];
}

/** Judge one ablation row from its pairing with the full pipeline (this row − full, query by query). */
export function judgeAblation(withoutStage: PairedRunComparison): AblationJudgement {
  const gated = withoutStage.metrics.filter((m) => isGatedMetric(m.metric));
  // The paired verdict is already "the interval excludes 0": regressed = wholly below, improved = wholly above.
  const helpsOn = gated.filter((m) => m.verdict === 'regressed').map((m) => m.metric);
  const hurtsOn = gated.filter((m) => m.verdict === 'improved').map((m) => m.metric);
  return { verdict: verdictOf(helpsOn.length > 0, hurtsOn.length > 0), helpsOn, hurtsOn };
}

function verdictOf(helps: boolean, hurts: boolean): AblationVerdict {
  if (helps && hurts) return 'mixed';
  if (helps) return 'helps';
  if (hurts) return 'hurts';
  return 'no-measurable-effect';
}
