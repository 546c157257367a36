// What makes an eval run degraded: the legs the probe found down, and the legs that failed on some query of the
// measurement after a healthy probe (a failed leg means the numbers measure less than they claim).
import type { LegReport } from '../types.js';
import type { LegDegradation } from './eval-run.js';
import { describeLeg, legBroke } from './leg-health.js';
import type { LegProbeResult } from './leg-verdict.js';

/** How often one retrieval leg failed during a measurement. */
export interface LegFailure {
  leg: keyof LegReport;
  queries: number;
  firstReason: string;
}

/** Count each broken leg of one search's report into `failures` (the first failure's reason is kept). */
export function countLegFailures(failures: Map<keyof LegReport, LegFailure>, report: LegReport): void {
  for (const leg of ['lexical', 'vector', 'reranker'] as const) {
    const health = report[leg];
    if (!legBroke(health)) continue;
    const seen = failures.get(leg);
    if (seen) seen.queries++;
    else
      failures.set(leg, {
        leg,
        queries: 1,
        firstReason: health.status === 'failed' ? (health.error ?? 'failed') : describeLeg(health),
      });
  }
}

/** Legs the probe found down, then legs that failed on some of the `total` queries after a healthy probe. */
export function collectDegradation(
  probe: LegProbeResult,
  failures: readonly LegFailure[],
  total: number,
): LegDegradation[] {
  const out: LegDegradation[] = probe.down.map((d) => ({ leg: d.leg, reason: d.reason }));
  for (const failure of failures) {
    if (out.some((d) => d.leg === failure.leg)) continue;
    out.push({
      leg: failure.leg,
      reason: `failed on ${failure.queries} of ${total} queries during the run (${failure.firstReason})`,
    });
  }
  return out;
}
