// An EvalReport around given runs, assembled the way the evaluator assembles a plain run's report (the
// comparison from compareWithPrevious, a healthy probe), for the renderers' unit tests.
import type { EvalReport, EvalRun } from '../../src/app/eval/eval-report.js';
import { compareWithPrevious } from '../../src/measure/eval-compare.js';

export interface EvalReportOptions {
  /** The run compared against; default the newest of `history`, else none. */
  previous?: EvalRun | null;
  /** The history read before the run, newest first; null as with --no-history (the default). */
  history?: EvalRun[] | null;
  diff?: boolean;
  /** --fail-on-regression. */
  gate?: boolean;
}

export function evalReportOf(run: EvalRun, options: EvalReportOptions = {}): EvalReport {
  const history = options.history ?? null;
  return {
    run,
    ...compareWithPrevious(run, options.previous ?? history?.[0] ?? null, {
      history: true,
      diff: options.diff ?? true,
      failOnRegression: options.gate ?? false,
      threshold: 0.05,
    }),
    comparedWith: 'previous',
    otherRows: [],
    versusDecision: null,
    appended: false,
    learning: null,
    versusCore: null,
    versusTwin: null,
    ablation: null,
    legFailures: [],
    probe: {
      query: 'probe words here',
      legs: {
        lexical: { status: 'ok', candidates: 5 },
        vector: { status: 'ok', candidates: 5 },
        reranker: { status: 'disabled', candidates: 0 },
      },
      down: [],
    },
    freshness: null,
    notes: [],
    golden: { path: 'g.yml', queries: [], hash: run.fingerprint.goldenHash },
    history:
      history === null
        ? null
        : { path: 'history.json', runs: history, stored: [], warnings: [], legacyPath: null },
  };
}
