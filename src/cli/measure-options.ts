// The options of the measuring commands (eval, its golden subcommands, tune) as data, and the flags each
// command's module receives, typed from that data (see FlagsOf).
import { choicesOf, type SearchRequest } from '../config/search-params.js';
import type { FlagsOf, OptionSpec } from './command-spec.js';
import {
  MAX_CUTOFF,
  MAX_TUNE_LIMIT,
  parseBool,
  parseBoundedInt,
  parseChoice,
  parseKList,
  parseNameList,
  parseUnit,
  usageError,
} from './flag-parsers.js';
import { formatOption, GOLDEN_OPTION, KB_OPTIONS, MODEL_OPTIONS, NO_COLOR_OPTION } from './option-groups.js';

type FoldMode = NonNullable<SearchRequest['fold']>;

const MIN_BUDGET = 16;
const MAX_BUDGET = 100_000;
const MAX_BUDGETS = 8;

/** `--budget 500,1000,2000`: distinct whole numbers of tokens, each within search's `max_tokens` bounds. */
function parseBudgetList(value: string): number[] {
  const parseOne = parseBoundedInt('eval', '--budget', MAX_BUDGET, MIN_BUDGET);
  const budgets = value.split(',').map((part) => parseOne(part));
  if (budgets.length > MAX_BUDGETS || new Set(budgets).size !== budgets.length) {
    throw usageError('eval', `--budget "${value}" must list at most ${MAX_BUDGETS} different budgets`);
  }
  return budgets;
}

export const GOLDEN_BUILD_OPTIONS = [
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
] as const satisfies readonly OptionSpec[];

export const GOLDEN_IMPORT_OPTIONS = [
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
] as const satisfies readonly OptionSpec[];

export const GOLDEN_QUOTE_OPTIONS = [
  GOLDEN_OPTION,
  {
    flags: '--out <path>',
    description:
      "where to write the re-anchored golden YAML (default: [eval] golden, else golden.yml in the KB's folder in groove's data folder; never over an existing file)",
  },
  {
    flags: '--keep-heading',
    description: 'keep each `heading` beside its new `quote` (a hit then needs both)',
  },
  formatOption(),
  ...KB_OPTIONS,
] as const satisfies readonly OptionSpec[];

export const GOLDEN_STAMP_OPTIONS = [
  GOLDEN_OPTION,
  formatOption(),
  ...KB_OPTIONS,
] as const satisfies readonly OptionSpec[];

export const EVAL_OPTIONS = [
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
    flags: '--budget <list>',
    description:
      'also report recall at these token budgets, e.g. 500,1000,2000: the passages `search --max-tokens` returns ' +
      'beside whole chunks in rank order, with the paired 95% interval of the difference',
    parse: parseBudgetList,
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
    description:
      'measure even when the golden sidecar is past [eval] max_golden_age_days or a golden quote no longer occurs in its document',
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
] as const satisfies readonly OptionSpec[];

export const TUNE_OPTIONS = [
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
] as const satisfies readonly OptionSpec[];

export type GoldenBuildFlags = FlagsOf<typeof GOLDEN_BUILD_OPTIONS>;
export type GoldenImportFlags = FlagsOf<typeof GOLDEN_IMPORT_OPTIONS>;
export type GoldenStampFlags = FlagsOf<typeof GOLDEN_STAMP_OPTIONS>;
export type GoldenQuoteFlags = FlagsOf<typeof GOLDEN_QUOTE_OPTIONS>;
export type EvalFlags = FlagsOf<typeof EVAL_OPTIONS>;
export type TuneFlags = FlagsOf<typeof TUNE_OPTIONS>;
