// Pure renderers for what eval's integrity checks add: the warnings on top (degraded legs, golden age and
// drift), the paired interval beside each arrow, the minimum detectable effect, the significant-regression
// gate, and the row frames of `--rows`. Text for stdout may use the report's symbols; stderr lines are ASCII.
import {
  type EvalReport,
  type EvalRowReport,
  formatDrift,
  type GoldenFreshness,
  type PairedMetric,
  type PairedRunComparison,
} from '../app/index.js';

/** Header lines under the corpus line: the golden set's age and drift, and any degradation. */
export function renderIntegrityHeader(report: EvalRowReport, freshness: GoldenFreshness | null): string[] {
  const lines: string[] = [];
  if (freshness) {
    const days = Math.max(0, Math.floor(freshness.ageDays));
    lines.push(
      `  golden: created ${freshness.meta.created} (${days} day${days === 1 ? '' : 's'} ago, source ${freshness.meta.source})`,
    );
    if (freshness.stale) {
      lines.push(
        `    ⚠️ older than [eval] max_golden_age_days = ${freshness.maxAgeDays}; measured anyway (--allow-stale-golden)`,
      );
    }
    const drift = freshness.drift;
    if (drift?.drifted) {
      lines.push(
        `    ⚠️ corpus moved ${formatDrift(drift.change)} since the golden set was made (${describeDrift(freshness)})`,
      );
      lines.push('       new documents compete for slots without being answers; rebuild or re-stamp the set');
    }
  }
  for (const d of report.run.degradation ?? []) {
    lines.push(`  ⚠️ degraded: ${d.leg} — ${d.reason}`);
  }
  if ((report.run.degradation ?? []).length > 0) {
    lines.push('     measured anyway (--allow-degraded); never compared with a healthy run');
  }
  return lines;
}

/** The interval beside an aggregate row's arrow: `  95% CI [+0.010, +0.102] improved`. */
export function renderIntervalSuffix(paired: PairedMetric | undefined): string {
  if (!paired) return '';
  if (paired.n < 2) return '  (too few shared queries for an interval)';
  return `  95% CI [${signed(paired.ciLow)}, ${signed(paired.ciHigh)}] ${paired.verdict}`;
}

/** One line after the aggregate: N and the minimum detectable effect of the shown metrics. */
export function renderDetectableEffect(report: EvalRowReport, shown: readonly string[]): string[] {
  const paired = report.paired;
  if (!paired) return [];
  if (paired.sharedQueries < 2) {
    return [
      `  paired over ${paired.sharedQueries} shared quer${paired.sharedQueries === 1 ? 'y' : 'ies'}: too few for an interval`,
    ];
  }
  const effects = paired.metrics
    .filter((m) => shown.includes(m.metric))
    .map((m) => `${m.metric} ${describeEffect(m.minDetectableEffect)}`)
    .join(', ');
  return [
    `  paired over ${paired.sharedQueries} shared queries; smallest effect detectable at this N (80% power):`,
    `    ${effects}`,
  ];
}

/** A reference row against the decision row, paired over the same queries: what the row buys, if anything. */
export function renderVersusDecision(
  report: EvalRowReport,
  decisionRow: string,
  shown: readonly string[],
): string[] {
  const paired = report.versusDecision;
  if (!paired) return [];
  return renderPairedBlock(`vs decision row ${decisionRow}`, paired, shown);
}

/** `  <title> (paired over N queries, 95% CI):` and one line per shown metric. */
export function renderPairedBlock(
  title: string,
  paired: PairedRunComparison,
  shown: readonly string[],
): string[] {
  const lines = [`  ${title} (paired over ${paired.sharedQueries} queries, 95% CI):`];
  for (const m of paired.metrics.filter((x) => shown.includes(x.metric))) {
    lines.push(
      paired.sharedQueries < 2
        ? `    ${m.metric.padEnd(10)} ${signed(m.meanDiff)}`
        : `    ${m.metric.padEnd(10)} ${signed(m.meanDiff)} [${signed(m.ciLow)}, ${signed(m.ciHigh)}] ${m.verdict}`,
    );
  }
  return lines;
}

/** What --fail-on-significant-regression decided, for stderr; '' when off or nothing regressed. */
export function renderSignificantGate(report: EvalReport): string {
  const gate = report.significantGate;
  if (gate.state === 'no-op')
    return `groove eval: --fail-on-significant-regression compared nothing: ${gate.reason}\n`;
  if (gate.state !== 'regressed') return '';
  const metrics = gate.regressions
    .map((r) => `${r.metric} ${signed(r.meanDiff)} [${signed(r.ciLow)}, ${signed(r.ciHigh)}]`)
    .join(', ');
  return `groove eval: significant regression against the run of ${gate.against} (95% interval entirely below zero): ${metrics}\n`;
}

/** Stderr warnings for degradation and golden freshness (ASCII). */
export function renderIntegrityDiagnostics(report: EvalReport): string {
  const lines: string[] = [];
  for (const d of report.run.degradation ?? []) {
    lines.push(
      `groove eval: warning: measured with a component down (--allow-degraded): ${d.leg} - ${d.reason}; the run is recorded as degraded`,
    );
  }
  const freshness = report.freshness;
  if (freshness?.stale) {
    lines.push(
      `groove eval: warning: the golden set is ${Math.floor(freshness.ageDays)} days old, past [eval] max_golden_age_days = ${freshness.maxAgeDays} (--allow-stale-golden)`,
    );
  }
  if (freshness?.drift?.drifted) {
    lines.push(
      `groove eval: warning: the corpus moved ${formatDrift(freshness.drift.change)} since the golden set was made (${describeDrift(freshness)}); rebuild or re-stamp it (threshold [eval] golden_drift_warn = ${freshness.drift.warnAbove})`,
    );
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** `── row core · decision row (gated) ──` before each block of a `--rows` run. */
export function renderRowTitle(row: string, decision: boolean, appended = false): string {
  if (decision) return `── row ${row} · decision row (the gates apply to it) ──`;
  const why = appended ? ', added for a learned row' : '';
  return `── row ${row} · reference row (printed, never gated${why}) ──`;
}

function describeDrift(freshness: GoldenFreshness): string {
  const drift = freshness.drift;
  if (!drift) return '';
  return `${drift.atCreation.documents} -> ${drift.now.documents} documents, ${drift.atCreation.chunks} -> ${drift.now.chunks} chunks`;
}

/** `0.099`; `none (> 1)` past the metric range; `n/a` when no query moved, so there is no spread to judge by. */
function describeEffect(effect: number): string {
  if (Number.isNaN(effect)) return 'n/a';
  return effect > 1 ? 'none (> 1)' : effect.toFixed(3);
}

/** `+0.083` / `-0.083` at three decimals (never `-0.000`); `+inf` / `-inf` for an open interval bound. */
export function signed(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? '+inf' : '-inf';
  const fixed = Math.abs(x).toFixed(3);
  return x < 0 && fixed !== '0.000' ? `-${fixed}` : `+${fixed}`;
}
