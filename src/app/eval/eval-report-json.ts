// `groove eval --format json`: the decision row's report as one object (the ranking metrics first), plus what the
// integrity checks decided — the leg probe, degradation, golden freshness, paired intervals, both gates — and,
// with --rows, every row's report; with --ablate, every stage switched off in turn. Not a frozen format; keys
// are snake_case, non-finite numbers are null.
import type { RegressionGate, SignificantGate } from '../../measure/eval-compare.js';
import type { AggregateDiff } from '../../measure/eval-diff.js';
import type { PairedRunComparison } from '../../measure/eval-paired.js';
import type { GoldenFreshness } from '../../measure/golden-freshness.js';
import type { LegProbeResult } from '../../measure/leg-verdict.js';
import type { AblationRow } from './eval-ablation.js';
import { budgetRecallToJson } from './eval-budget.js';
import type { LearningUse } from './eval-learning.js';
import { type EvalReport, type EvalRowReport, rowsOf } from './eval-report.js';
import { evalRunToJson } from './eval-run-json.js';

type Json = Record<string, unknown>;

export function evalReportToJson(report: EvalReport): Json {
  const rows = report.otherRows.length > 0 || report.run.row !== undefined ? rowsOf(report) : null;
  return {
    ...rowToJson(report),
    kbs: report.run.fingerprint.kbs ?? null,
    probe: probeToJson(report.probe),
    golden_freshness: freshnessToJson(report.freshness),
    stale_quotes: (report.staleQuotes ?? []).map((q) => ({
      query_id: q.queryId,
      path: q.path,
      quote: q.quote,
    })),
    rows: rows
      ? rows.map((r, i) => ({
          ...rowToJson(r),
          decision: i === 0,
          versus_decision: pairedToJson(r.versusDecision),
          learning: learningToJson(r.learning),
          versus_core: pairedToJson(r.versusCore),
          versus_honest_twin: r.versusTwin
            ? { twin: r.versusTwin.twin, ...pairedToJson(r.versusTwin.paired) }
            : null,
        }))
      : null,
    ablation: report.ablation ? report.ablation.map(ablationRowToJson) : null,
    ...(report.budget ? { budget_recall: budgetRecallToJson(report.budget) } : {}),
  };
}

/** One stage of `--ablate`: its state, and for a measured stage the aggregate, the pairing with full, the verdict. */
function ablationRowToJson(row: AblationRow): Json {
  const measured = row.run !== null;
  return {
    stage: row.stage,
    row: row.name,
    state: measured ? 'run' : 'not-applicable',
    reason: row.reason,
    aggregate: row.run ? evalRunToJson(row.run).aggregate : null,
    degraded: (row.run?.degradation ?? []).length > 0,
    versus_full: pairedToJson(row.versusFull),
    verdict: row.judgement?.verdict ?? null,
    helps_on: row.judgement?.helpsOn ?? [],
    hurts_on: row.judgement?.hurtsOn ?? [],
  };
}

function rowToJson(report: EvalRowReport): Json {
  const run = evalRunToJson(report.run);
  const degradation = report.run.degradation ?? [];
  // The ranking metrics first; what the integrity checks add comes after them, so a reader finds the numbers first.
  return {
    timestamp: run.timestamp,
    fingerprint: run.fingerprint,
    corpus: run.corpus,
    corpus_changed: report.corpusChanged,
    aggregate: run.aggregate,
    per_query: run.per_query,
    findings: run.findings,
    ...(run.abstention ? { abstention: run.abstention } : {}),
    previous: report.previous ? evalRunToJson(report.previous) : null,
    diff: report.diff ? diffToJson(report.diff) : null,
    row: report.run.row ?? null,
    degraded: degradation.length > 0,
    degradation: degradation.map((d) => ({ leg: d.leg, reason: d.reason })),
    paired: pairedToJson(report.paired),
    gates: {
      regression: gateToJson(report.gate),
      significant_regression: gateToJson(report.significantGate),
    },
  };
}

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** The deltas against the compared run; P@k, MAP@k, hit rate@k and R-precision only when both runs have them. */
function diffToJson(diff: AggregateDiff): Json {
  const { extra } = diff;
  return {
    recall_at_k: diff.recallAtK,
    ndcg_at_k: diff.ndcgAtK,
    mrr: diff.mrr,
    ...(extra
      ? {
          precision_at_k: extra.precisionAtK,
          map_at_k: extra.mapAtK,
          hit_rate_at_k: extra.hitRateAtK,
          r_precision: finite(extra.rPrecision),
        }
      : {}),
  };
}

function pairedToJson(paired: PairedRunComparison | null): Json | null {
  if (!paired) return null;
  return {
    against: paired.against,
    shared_queries: paired.sharedQueries,
    confidence: paired.confidence,
    power: paired.power,
    metrics: paired.metrics.map((m) => ({
      metric: m.metric,
      n: m.n,
      mean_diff: finite(m.meanDiff),
      ci_low: finite(m.ciLow),
      ci_high: finite(m.ciHigh),
      verdict: m.verdict,
      sd_diff: finite(m.sdDiff),
      min_detectable_effect: finite(m.minDetectableEffect),
    })),
  };
}

function gateToJson(gate: RegressionGate | SignificantGate): Json {
  switch (gate.state) {
    case 'off':
      return { state: 'off' };
    case 'no-op':
      return { state: 'no-op', reason: gate.reason };
    case 'passed':
      return { state: 'passed', against: gate.against };
    case 'regressed':
      return {
        state: 'regressed',
        against: gate.against,
        regressions: gate.regressions.map((r) =>
          'verdict' in r
            ? { metric: r.metric, mean_diff: r.meanDiff, ci_low: finite(r.ciLow), ci_high: finite(r.ciHigh) }
            : { metric: r.metric, previous: r.previous, now: r.now },
        ),
      };
  }
}

function learningToJson(learning: LearningUse | null): Json | null {
  if (!learning) return null;
  const { counts, honest } = learning;
  return {
    judgments: {
      serves: counts.serves,
      items: counts.items,
      counted: counts.counted,
      always_served: counts.alwaysServed,
      past_horizon: counts.pastHorizon,
    },
    judged_documents: learning.judgedDocuments,
    co_helpful_edges: learning.coHelpfulEdges,
    honest: honest && {
      queries: honest.queries,
      queries_leaving_out: honest.queriesLeavingOut,
      serves_left_out: honest.servesLeftOut,
    },
    golden_source: learning.goldenSource,
  };
}

function probeToJson(probe: LegProbeResult): Json {
  return {
    query: probe.query,
    legs: probe.legs,
    down: probe.down.map((d) => ({ leg: d.leg, reason: d.reason })),
  };
}

function freshnessToJson(freshness: GoldenFreshness | null): Json | null {
  if (!freshness) return null;
  const { meta, drift } = freshness;
  return {
    created: meta.created,
    source: meta.source,
    age_days: Math.round(freshness.ageDays * 100) / 100,
    max_age_days: freshness.maxAgeDays,
    stale: freshness.stale,
    corpus_at_creation: { documents: meta.corpusDocuments, chunks: meta.corpusChunks },
    drift: drift
      ? { change: finite(drift.change), warn_above: drift.warnAbove, drifted: drift.drifted }
      : null,
  };
}
