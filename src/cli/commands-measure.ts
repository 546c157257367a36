// The measuring commands as data (see command-spec.ts): `groove eval` with `eval golden build|stamp`, and
// `groove tune`.
import { choicesOf, type SearchRequest } from '../config/search-params.js';
import type { CommandSpec } from './command-spec.js';
import {
  MAX_CUTOFF,
  MAX_TUNE_LIMIT,
  parseBool,
  parseBoundedInt,
  parseChoice,
  parseKList,
  parseNameList,
  parseUnit,
} from './flag-parsers.js';
import { formatOption, GOLDEN_OPTION, KB_OPTIONS, MODEL_OPTIONS, NO_COLOR_OPTION } from './option-groups.js';

type FoldMode = NonNullable<SearchRequest['fold']>;

const GOLDEN_COMMAND: CommandSpec = {
  name: 'golden',
  description: 'make golden sets: build from feedback, import from TREC/BEIR files, or stamp',
  positionalOptions: true,
  subcommands: [
    {
      name: 'build',
      description:
        'write a golden set (and its sidecar) from the judgments agents recorded with record_feedback',
      options: [
        {
          flags: '--from-feedback',
          description: 'build from the feedback stored in the index (the only source so far)',
        },
        {
          flags: '--out <path>',
          description:
            "where to write the golden YAML (default: [eval] golden, else golden.yml in the KB's folder in groove's data folder)",
        },
        formatOption(),
        ...KB_OPTIONS,
      ],
      load: () => import('./cmd-golden-build.js'),
    },
    {
      name: 'import',
      description: 'write a golden set from TREC/BEIR files: qrels plus queries (TSV or JSONL)',
      options: [
        {
          flags: '--qrels <path>',
          description: 'qrels: `qid iter docid rel` or BEIR `query-id corpus-id score`',
        },
        {
          flags: '--queries <path>',
          description: 'queries: TSV `qid<TAB>text` or BEIR JSONL `{"_id","text"}`',
        },
        {
          flags: '--out <path>',
          description:
            "where to write the golden YAML (default: [eval] golden, else golden.yml in the KB's folder in groove's data folder; never over an existing file)",
        },
        formatOption(),
        ...KB_OPTIONS,
      ],
      load: () => import('./cmd-golden-import.js'),
    },
    {
      name: 'stamp',
      description: 'date the golden set against the index as it is now (writes <golden>.meta.yml)',
      options: [GOLDEN_OPTION, formatOption(), ...KB_OPTIONS],
      load: () => import('./cmd-golden-stamp.js'),
    },
  ],
};

export const EVAL_COMMAND: CommandSpec = {
  name: 'eval',
  description: 'measure retrieval quality against a golden file and diff with the previous run',
  positionalOptions: true,
  options: [
    GOLDEN_OPTION,
    {
      flags: '--reranker <id>',
      description: 'cross-encoder to measure with, or `none` (rerank_by_default is ignored)',
    },
    {
      flags: '--k <list>',
      description: 'k values for recall@k and nDCG@k (default: [eval] k_values or 1,5,10)',
      parse: parseKList('eval'),
    },
    {
      flags: '--limit <n>',
      description: 'results fetched per query (default: the largest k; at most 1000)',
      parse: parseBoundedInt('eval', '--limit', MAX_CUTOFF),
    },
    formatOption(),
    {
      flags: '--trec-run <path>',
      description: 'also write the ranking as a TREC run (`qid Q0 docid rank score tag`)',
    },
    {
      flags: '--trec-qrels <path>',
      description: 'also write the golden set as TREC qrels (`qid 0 docid 1`)',
    },
    {
      flags: '--report <file.html>',
      description: 'also write a self-contained HTML report (metrics, trend charts, per-query table)',
    },
    { flags: '--no-history', description: "neither read nor write the KB's eval history" },
    { flags: '--no-diff', description: 'do not compare with the previous run (the run is still recorded)' },
    NO_COLOR_OPTION,
    {
      flags: '--fail-on-regression',
      description: 'exit 1 when an aggregate metric fell by more than [eval] regression_threshold',
    },
    {
      flags: '--fail-on-significant-regression',
      description: 'exit 1 only when the paired 95% interval of a metric lies entirely below zero',
    },
    {
      flags: '--compare <run-id|path>',
      description: 'baseline: a history run (its timestamp or a prefix) or a --format json file',
    },
    {
      flags: '--rows <list>',
      description: 'measure several pipelines in one run, e.g. core,rerank,mmr,parent (first decides)',
      parse: parseNameList('eval', '--rows', 'core,rerank'),
    },
    {
      flags: '--ablate',
      description:
        'also measure the decision pipeline with each stage switched off in turn, paired against it (never gated)',
    },
    {
      flags: '--allow-degraded',
      description: 'measure even when a retrieval leg is down (the run is recorded as degraded)',
    },
    {
      flags: '--allow-stale-golden',
      description: 'measure even when the golden sidecar is past [eval] max_golden_age_days',
    },
    {
      flags: '--mmr [bool]',
      description: 'diversify results with MMR (same as on `groove search`)',
      parse: parseBool('eval', '--mmr'),
    },
    { flags: '--no-mmr', description: 'turn MMR off even when [search.mmr] enables it' },
    {
      flags: '--mmr-lambda <0..1>',
      description: 'MMR relevance/diversity trade-off',
      parse: parseUnit('eval', '--mmr-lambda'),
    },
    {
      flags: '--mmr-same-doc-penalty <0..1>',
      description: 'MMR penalty for a second chunk of one document',
      parse: parseUnit('eval', '--mmr-same-doc-penalty'),
    },
    {
      flags: '--parent-retriever [bool]',
      description: 'expand short hits to their document or neighbours',
      parse: parseBool('eval', '--parent-retriever'),
    },
    { flags: '--no-parent-retriever', description: 'turn the parent retriever off' },
    {
      flags: '--fold <mode>',
      description: 'fold hits of one section or document into the first (same as on `groove search`)',
      parse: parseChoice('eval', '--fold', choicesOf('fold') as readonly FoldMode[]),
    },
    ...KB_OPTIONS,
    ...MODEL_OPTIONS,
  ],
  help: '\nExamples:\n  groove eval --kb-path ./notes\n  groove eval --kb-path ./notes --golden ci-golden.yml --k 1,3,10 --format json\n  groove eval --kb-path ./notes --fail-on-regression   # CI gate: exit 1 on a regression\n  groove eval --kb-path ./notes --report eval-report.html\n  groove eval --kb-path ./notes --rows core,rerank --reranker bge-reranker-v2-m3\n  groove eval golden build --from-feedback --kb-path ./notes\n\nExit codes: 0 ok, 1 regression (with a --fail-on-* gate) or error, 2 bad usage,\n3 refused to measure (a component is down, or the golden set is stale).',
  subcommands: [GOLDEN_COMMAND],
  load: () => import('./cmd-eval.js'),
};

export const TUNE_COMMAND: CommandSpec = {
  name: 'tune',
  description:
    'measure whether rrf_k and the bm25 column weights can move retrieval on this KB (plain RRF stage, no reranker)',
  options: [
    GOLDEN_OPTION,
    {
      flags: '--k <list>',
      description: 'k values for recall@k (default: [eval] k_values or 1,5,10; 5 is always added)',
      parse: parseKList('tune'),
    },
    {
      flags: '--limit <n>',
      description: 'hits scored per query (default and floor: the largest k; at most 10000)',
      parse: parseBoundedInt('tune', '--limit', MAX_TUNE_LIMIT),
    },
    formatOption(),
    {
      flags: '--report <file.html>',
      description: 'also write a self-contained HTML report (heat map, fold choices, impact, verdict)',
    },
    NO_COLOR_OPTION,
    { flags: '--allow-degraded', description: 'sweep even when a retrieval leg fails the probe sent first' },
    ...KB_OPTIONS,
    ...MODEL_OPTIONS,
  ],
  help:
    '\nExamples:\n  groove tune --kb-path ./notes\n  groove tune --kb-path ./notes --format json > tune.json\n  groove tune --kb-path ./notes --golden ci-golden.yml --limit 20\n  groove tune --kb-path ./notes --report tune-report.html\n\n' +
    'tune applies nothing: it prints a paste-ready [search.fusion] snippet or says to keep the defaults.\n' +
    'Exit codes: 0 either verdict, 1 error, 2 bad usage or no measurable golden query (effective N = 0),\n' +
    '3 a retrieval leg is down (the probe sent before sweeping failed; --allow-degraded sweeps anyway).',
  load: () => import('./cmd-tune.js'),
};
