// The measuring commands as data (see command-spec.ts): `groove eval` with `eval golden build|stamp`, and
// `groove tune`.
import type { CommandSpec } from './command-spec.js';
import {
  EVAL_OPTIONS,
  GOLDEN_BUILD_OPTIONS,
  GOLDEN_IMPORT_OPTIONS,
  GOLDEN_QUOTE_OPTIONS,
  GOLDEN_STAMP_OPTIONS,
  TUNE_OPTIONS,
} from './measure-options.js';

const GOLDEN_COMMAND: CommandSpec = {
  name: 'golden',
  description:
    'make golden sets: build from feedback, import from TREC/BEIR files, re-anchor by quotes, or stamp',
  positionalOptions: true,
  subcommands: [
    {
      name: 'build',
      description:
        'write a golden set (and its sidecar) from the judgments agents recorded with record_feedback',
      options: GOLDEN_BUILD_OPTIONS,
      load: () => import('./cmd-golden-build.js'),
    },
    {
      name: 'import',
      description: 'write a golden set from TREC/BEIR files: qrels plus queries (TSV or JSONL)',
      options: GOLDEN_IMPORT_OPTIONS,
      load: () => import('./cmd-golden-import.js'),
    },
    {
      name: 'quote',
      description:
        'rewrite heading entries into quote entries: a passage of each chunk, in the index now, that no other chunk holds',
      options: GOLDEN_QUOTE_OPTIONS,
      load: () => import('./cmd-golden-quote.js'),
    },
    {
      name: 'stamp',
      description: 'date the golden set against the index as it is now (writes <golden>.meta.yml)',
      options: GOLDEN_STAMP_OPTIONS,
      load: () => import('./cmd-golden-stamp.js'),
    },
  ],
};

export const EVAL_COMMAND: CommandSpec = {
  name: 'eval',
  description: 'measure retrieval quality against a golden file and diff with the previous run',
  positionalOptions: true,
  options: EVAL_OPTIONS,
  help: '\nExamples:\n  groove eval --kb-path ./notes\n  groove eval --kb-path ./notes --golden ci-golden.yml --k 1,3,10 --format json\n  groove eval --kb-path ./notes --fail-on-regression   # CI gate: exit 1 on a regression\n  groove eval --kb-path ./notes --report eval-report.html\n  groove eval --kb-path ./notes --rows core,rerank --reranker bge-reranker-v2-m3\n  groove eval golden build --from-feedback --kb-path ./notes\n\nExit codes: 0 ok, 1 regression (with a --fail-on-* gate) or error, 2 bad usage,\n3 refused to measure (a component is down, or the golden set is stale).',
  subcommands: [GOLDEN_COMMAND],
  load: () => import('./cmd-eval.js'),
};

export const TUNE_COMMAND: CommandSpec = {
  name: 'tune',
  description:
    'measure whether rrf_k and the bm25 column weights can move retrieval on this KB (plain RRF stage, no reranker), and fit min_confidence on a golden set with negative queries',
  options: TUNE_OPTIONS,
  help:
    '\nExamples:\n  groove tune --kb-path ./notes\n  groove tune --kb-path ./notes --format json > tune.json\n  groove tune --kb-path ./notes --golden ci-golden.yml --limit 20\n  groove tune --kb-path ./notes --report tune-report.html\n\n' +
    'tune applies nothing: it prints a paste-ready [search.fusion] snippet or says to keep the defaults,\n' +
    'and, with at least 10 negative (expected: []) and 10 answerable queries, a [search] min_confidence line.\n' +
    'Exit codes: 0 either verdict, 1 error, 2 bad usage or no measurable golden query (effective N = 0),\n' +
    '3 a retrieval leg is down (the probe sent before sweeping failed; --allow-degraded sweeps anyway).',
  load: () => import('./cmd-tune.js'),
};
