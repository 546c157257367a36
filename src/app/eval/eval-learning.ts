// What eval's learned rows learn from. A naive row learns from every judgment recorded when the snapshot was
// taken; its honest twin, for each golden query, from all of them but the ones that query produced (same task
// id, or same normalised text: rank/learned-signals.ts withoutOwnServes). Both are built by the same pure
// function as search's own signals, with eval's clock, and the report says how many judgments each row used,
// pairs each learned row with core and with its twin, and fingerprints what it learned from.
import type { ResolvedConfig } from '../../config/resolve-config.js';
import type { EvalFingerprint } from '../../measure/eval-fingerprint.js';
import { type PairedRunComparison, pairRuns } from '../../measure/eval-paired.js';
import type { EvalRun } from '../../measure/eval-run.js';
import type { JudgedServe, JudgmentCounts, JudgmentWindow } from '../../rank/counted-judgments.js';
import { type LearnedSignals, learnSignals, ownServesFilter } from '../../rank/learned-signals.js';
import type { GoldenQuery } from '../golden/index.js';
import type { EffectivePipeline, EvalRowSpec } from './eval-rows.js';

/** Which judgments a learned row used, for the report. */
export interface LearningUse {
  /** Every recorded judgment as of the snapshot: what a naive row learns from. */
  counts: JudgmentCounts;
  /** Documents with any counted judgment, and co-helpful document pairs, learned from all of them. */
  judgedDocuments: number;
  coHelpfulEdges: number;
  /** For an honest row: how many queries left serves out of their signals, and how many serves in all. */
  honest: { queries: number; queriesLeavingOut: number; servesLeftOut: number } | null;
  /**
   * The golden set's sidecar `source` (`feedback`: its labels came from these judgments; `stamp`: a dated
   * hand-written set), or null without a sidecar.
   */
  goldenSource: string | null;
}

export interface EvalLearning {
  /** The signals a row learns from for one golden query. */
  signalsFor(pipeline: EffectivePipeline, query: GoldenQuery): LearnedSignals;
  /** What a learned row used (null for a row that learns nothing). */
  use(pipeline: EffectivePipeline, options: { learned: boolean }): LearningUse | null;
}

export function createEvalLearning(
  serves: readonly JudgedServe[],
  options: {
    now: Date;
    window: JudgmentWindow;
    queries: readonly GoldenQuery[];
    goldenSource: string | null;
  },
): EvalLearning {
  const learn = (from: readonly JudgedServe[]) => learnSignals(from, options);
  const all = learn(serves);
  const without = ownServesFilter(serves);
  const leftOutByQuery = new Map<string, number>();
  // Only the latest query's honest signals are kept: a row measures its queries one after the other, and one
  // table per golden query would hold thousands of them.
  let latest: { id: string; signals: LearnedSignals } | null = null;
  const honestFor = (query: GoldenQuery) => {
    if (latest?.id === query.id) return latest.signals;
    const kept = without({ id: query.id, query: query.query });
    leftOutByQuery.set(query.id, serves.length - kept.length);
    // A query that produced none of the judgments learns exactly what the naive row learns.
    const signals = kept.length === serves.length ? all : learn(kept);
    latest = { id: query.id, signals };
    return signals;
  };
  const leftOutOf = (query: GoldenQuery) => {
    if (!leftOutByQuery.has(query.id)) {
      leftOutByQuery.set(query.id, serves.length - without({ id: query.id, query: query.query }).length);
    }
    return leftOutByQuery.get(query.id)!;
  };
  return {
    signalsFor: (pipeline, query) => (pipeline.honest ? honestFor(query) : all),
    use(pipeline, { learned }) {
      if (!learned && !pipeline.honest) return null;
      let honest: LearningUse['honest'] = null;
      if (pipeline.honest) {
        const leftOut = options.queries.map(leftOutOf);
        honest = {
          queries: leftOut.length,
          queriesLeavingOut: leftOut.filter((n) => n > 0).length,
          servesLeftOut: leftOut.reduce((sum, n) => sum + n, 0),
        };
      }
      return {
        counts: all.counts,
        judgedDocuments: all.boost.documents,
        coHelpfulEdges: all.coHelpful.edges,
        honest,
        goldenSource: options.goldenSource,
      };
    },
  };
}

/** A plain run leaves the boost and the graph hop out even when the config turns them on: say so. */
export function plainRunNotes(withRows: boolean, config: ResolvedConfig): string[] {
  const on = [
    ...(config.search.boost.enabled ? ['[search.boost]'] : []),
    ...(config.search.graph.enabled ? ['[search.graph]'] : []),
  ];
  if (withRows || on.length === 0) return [];
  return [
    `${on.join(' and ')} enabled, but a plain run measures without the boost and the graph hop; measure them with --rows core,graph+boost (their honest twins are added)`,
  ];
}

/** The fingerprint parts of the boost, the graph hop, honesty and the judgments a learned row used. */
export function learnedFingerprint(
  pipeline: EffectivePipeline,
  use: LearningUse | null,
): Partial<EvalFingerprint> {
  return {
    ...(pipeline.boost ? { boost: pipeline.boost } : {}),
    ...(pipeline.graph ? { graph: pipeline.graph } : {}),
    ...(pipeline.honest ? { honest: true } : {}),
    ...(use ? { judgments: { serves: use.counts.serves, items: use.counts.items } } : {}),
  };
}

/** A row's pairings with `core` and with its honest twin. */
export interface LearnedPairing {
  versusCore: PairedRunComparison | null;
  versusTwin: { twin: string; paired: PairedRunComparison } | null;
}

/**
 * Per row: a learned or honest row against `core`, and a learned row against its honest twin (the leak); null
 * pairings for every other row.
 */
export function pairLearnedRows(rows: readonly EvalRowSpec[], runs: readonly EvalRun[]): LearnedPairing[] {
  const byName = new Map(rows.map((row, i) => [row.name, runs[i]!]));
  const core = byName.get('core');
  return rows.map((row, i) => {
    const run = runs[i]!;
    if (!row.twin) return { versusCore: null, versusTwin: null };
    const twin = byName.get(row.twin);
    return {
      versusCore: core ? pairRuns(run, core) : null,
      versusTwin: !row.pipeline.honest && twin ? { twin: row.twin, paired: pairRuns(run, twin) } : null,
    };
  });
}
