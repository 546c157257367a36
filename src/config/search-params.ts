// The search parameters, declared once: name (camelCase in the app, snake_case on the wire), command-line
// form, type, bounds, default and the one description the CLI help, the MCP schema and the docs all show.
// The request schemas (search-param-schema.ts), `groove search`'s options and docs/configuration.md are
// generated from this table; a default, with its bounds, is the groove.toml key's (config-keys.ts).
import { FOLD_MODES } from '../rank/fold-hits.js';
import type { ConfigKey } from './config-key.js';
import { CONFIG_KEYS } from './config-keys.js';

export type ParamType = 'string' | 'number' | 'integer' | 'boolean' | 'stringList' | 'date' | 'choice';

/** Where a parameter's default comes from: a key of DEFAULTS, which the same key in groove.toml overrides. */
export interface ParamDefault {
  value: number | boolean | string;
  /** The DEFAULTS path, e.g. `search.mmr.lambda`. */
  configPath: string;
}

/** The command-line form: the positional argument, or a flag (`--no-<flag>` too when `negation` is set). */
export type CliForm =
  | { kind: 'argument'; value: string }
  | {
      kind: 'option';
      flag: string;
      /** The value placeholder, e.g. `<n>`; absent for a boolean switch. */
      value?: string;
      /** Lists: the flag is repeated (`repeat`) or takes comma-separated entries (`comma`). */
      list?: 'repeat' | 'comma';
      /** Help text of the `--no-<flag>` form, which turns the parameter off over a config that enables it. */
      negation?: string;
    };

export interface SearchParam {
  name: string;
  wire: string;
  type: ParamType;
  description: string;
  cli: CliForm;
  required?: boolean;
  default?: ParamDefault;
  /** Numbers: the inclusive bounds. */
  min?: number;
  max?: number;
  /** Strings: the UTF-8 byte cap; lists: the cap of each entry. */
  maxBytes?: number;
  /** Lists: the most entries, and the fewest when the list is given at all. */
  maxEntries?: number;
  minEntries?: number;
  /** Lists: what one entry is called in messages. */
  entry?: string;
  /** Choices: the values allowed, in the order the help lists them. */
  values?: readonly string[];
}

/** A parameter's default and bounds: those of the groove.toml key that sets its default (config-keys.ts). */
function fromConfig(path: string): { default: ParamDefault; min?: number; max?: number } {
  const key = (CONFIG_KEYS as readonly ConfigKey[]).find((k) => k.setting === path);
  const value = key?.default;
  if (typeof value !== 'number' && typeof value !== 'boolean' && typeof value !== 'string') {
    throw new Error(
      `search parameter default "${path}" is not a number, boolean or string in the table of groove.toml keys`,
    );
  }
  return {
    default: { value, configPath: path },
    ...(key?.min === undefined ? {} : { min: key.min }),
    ...(key?.max === undefined ? {} : { max: key.max }),
  };
}

const MAX_QUERY_BYTES = 1024;

/**
 * Which candidate legs a search runs: both (fused by RRF), or only the lexical or only the vector leg; the
 * other is not run at all. The one-leg values are the stage names `groove eval --ablate` switches off.
 */
export const SEARCH_LEGS = ['both', 'lexical', 'vector'] as const;
export type SearchLegs = (typeof SEARCH_LEGS)[number];
const MAX_FILTER_ENTRIES = 64;
/** The bounds of a token budget (`max_tokens`). */
const MIN_MAX_TOKENS = 16;
const MAX_MAX_TOKENS = 100_000;
const MAX_FILTER_ENTRY_BYTES = 1024;

export const SEARCH_PARAMS = [
  {
    name: 'query',
    wire: 'query',
    type: 'string',
    required: true,
    cli: { kind: 'argument', value: '<query>' },
    maxBytes: MAX_QUERY_BYTES,
    description:
      'what to look for, in natural language or keywords; "quoted phrases" must match verbatim, -word or ' +
      '-"phrase" excludes chunks containing it; works for Japanese and other CJK text',
  },
  {
    name: 'limit',
    wire: 'limit',
    type: 'integer',
    cli: { kind: 'option', flag: '--limit', value: '<n>' },
    ...fromConfig('search.limit'),
    description: 'how many results to return',
  },
  {
    name: 'category',
    wire: 'category',
    type: 'string',
    cli: { kind: 'option', flag: '--category', value: '<name>' },
    description: 'only documents whose first folder is exactly this',
  },
  {
    name: 'topic',
    wire: 'topic',
    type: 'string',
    cli: { kind: 'option', flag: '--topic', value: '<name>' },
    description: 'only documents with this topic: the frontmatter `topic`, else the second folder',
  },
  {
    name: 'pathGlobs',
    wire: 'path_globs',
    type: 'stringList',
    cli: { kind: 'option', flag: '--path-glob', value: '<glob>', list: 'repeat' },
    minEntries: 1,
    maxEntries: MAX_FILTER_ENTRIES,
    maxBytes: MAX_FILTER_ENTRY_BYTES,
    entry: 'glob',
    description:
      'only paths matching any of these globs, e.g. `guides/**`; a glob starting with `!` excludes',
  },
  {
    name: 'tagsAny',
    wire: 'tags_any',
    type: 'stringList',
    cli: { kind: 'option', flag: '--tag-any', value: '<a,b>', list: 'comma' },
    maxEntries: MAX_FILTER_ENTRIES,
    maxBytes: MAX_FILTER_ENTRY_BYTES,
    entry: 'tag',
    description: 'only documents carrying at least one of these tags, compared case-insensitively',
  },
  {
    name: 'tagsAll',
    wire: 'tags_all',
    type: 'stringList',
    cli: { kind: 'option', flag: '--tag-all', value: '<a,b>', list: 'comma' },
    maxEntries: MAX_FILTER_ENTRIES,
    maxBytes: MAX_FILTER_ENTRY_BYTES,
    entry: 'tag',
    description: 'only documents carrying all of these tags, compared case-insensitively',
  },
  {
    name: 'dateFrom',
    wire: 'date_from',
    type: 'date',
    cli: { kind: 'option', flag: '--date-from', value: '<YYYY-MM-DD>' },
    description: 'only documents whose frontmatter date is on or after this day; undated ones drop out',
  },
  {
    name: 'dateTo',
    wire: 'date_to',
    type: 'date',
    cli: { kind: 'option', flag: '--date-to', value: '<YYYY-MM-DD>' },
    description: 'only documents dated on or before this day (not before date_from); undated ones drop out',
  },
  {
    name: 'minQuality',
    wire: 'min_quality',
    type: 'number',
    cli: { kind: 'option', flag: '--min-quality', value: '<0..1>' },
    ...fromConfig('qualityFilter.threshold'),
    description: 'hide chunks whose quality score is below this',
  },
  {
    name: 'includeLowQuality',
    wire: 'include_low_quality',
    type: 'boolean',
    cli: { kind: 'option', flag: '--include-low-quality' },
    description: 'also return low-quality chunks: a quality floor of 0',
  },
  {
    name: 'legs',
    wire: 'legs',
    type: 'choice',
    cli: { kind: 'option', flag: '--legs', value: '<which>' },
    values: SEARCH_LEGS,
    description:
      'which retrieval legs run: both, fused by RRF; lexical alone (keywords, no query embedding); or vector ' +
      'alone (embeddings, no keyword search); the leg left out reports disabled with a reason',
  },
  {
    name: 'maxTokens',
    wire: 'max_tokens',
    type: 'integer',
    cli: { kind: 'option', flag: '--max-tokens', value: '<n>' },
    min: MIN_MAX_TOKENS,
    max: MAX_MAX_TOKENS,
    description:
      'answer with passages that fit this many tokens instead of whole chunks: extracts around the matches, ' +
      'cut at sentence or line boundaries, best first, none twice; the response reports tokens_used',
  },
  {
    name: 'rerank',
    wire: 'rerank',
    type: 'boolean',
    cli: {
      kind: 'option',
      flag: '--rerank',
      negation: 'skip the reranker even when rerank_by_default is on',
    },
    ...fromConfig('rerankByDefault'),
    description: 'rerank with the configured cross-encoder; no effect when none is configured',
  },
  {
    name: 'mmr',
    wire: 'mmr',
    type: 'boolean',
    cli: { kind: 'option', flag: '--mmr', negation: 'turn MMR off even when [search.mmr] enables it' },
    ...fromConfig('search.mmr.enabled'),
    description: 'diversify results with maximal marginal relevance, so one document does not fill them',
  },
  {
    name: 'mmrLambda',
    wire: 'mmr_lambda',
    type: 'number',
    cli: { kind: 'option', flag: '--mmr-lambda', value: '<0..1>' },
    ...fromConfig('search.mmr.lambda'),
    description: 'MMR relevance/diversity trade-off; lower is more diverse',
  },
  {
    name: 'mmrSameDocPenalty',
    wire: 'mmr_same_doc_penalty',
    type: 'number',
    cli: { kind: 'option', flag: '--mmr-same-doc-penalty', value: '<0..1>' },
    ...fromConfig('search.mmr.sameDocPenalty'),
    description: 'MMR penalty for a second chunk of the same document',
  },
  {
    name: 'parentRetriever',
    wire: 'parent_retriever',
    type: 'boolean',
    cli: {
      kind: 'option',
      flag: '--parent-retriever',
      negation: 'turn the parent retriever off even when [search.parent_retriever] enables it',
    },
    ...fromConfig('search.parentRetriever.enabled'),
    description: 'expand short hits to their neighbouring chunks or the whole short document',
  },
  {
    name: 'boost',
    wire: 'boost',
    type: 'boolean',
    cli: {
      kind: 'option',
      flag: '--boost',
      negation: 'turn the boost off even when [search.boost] enables it',
    },
    ...fromConfig('search.boost.enabled'),
    description:
      'raise documents agents judged helped (record_feedback) and lower those judged noise or wrong, by a ' +
      'bounded amount; no effect without judgments',
  },
  {
    name: 'graph',
    wire: 'graph',
    type: 'boolean',
    cli: {
      kind: 'option',
      flag: '--graph',
      negation: 'turn the graph hop off even when [search.graph] enables it',
    },
    ...fromConfig('search.graph.enabled'),
    description:
      'pull in documents linked to the top hits, or judged helped in the same task as one; pulled-in hits ' +
      'carry expanded_from',
  },
  {
    name: 'fold',
    wire: 'fold',
    type: 'choice',
    cli: { kind: 'option', flag: '--fold', value: '<mode>' },
    values: FOLD_MODES,
    ...fromConfig('search.fold'),
    description:
      'fold lower hits of the same section (same document and heading path) or the same document into the ' +
      'first one, which carries `folded`: how many; the list is refilled from further candidates. Built in: ' +
      'section when `groove eval` measures it not lowering recall@10 or nDCG@10 on any shared dataset, else none',
  },
  {
    name: 'minConfidence',
    wire: 'min_confidence',
    type: 'number',
    cli: { kind: 'option', flag: '--min-confidence', value: '<c>' },
    ...fromConfig('search.minConfidence'),
    description:
      'low_confidence is set when confidence (the IDF-weighted share of the query terms the top hit holds) is ' +
      'below this; 0 disables it',
  },
  {
    name: 'explain',
    wire: 'explain',
    type: 'boolean',
    cli: { kind: 'option', flag: '--explain' },
    description:
      'add per-hit ranks and scores from each retrieval leg, the boost and the graph hop, for debugging ranking',
  },
  {
    name: 'timings',
    wire: 'timings',
    type: 'boolean',
    cli: { kind: 'option', flag: '--timings' },
    description:
      'add timings_ms: the milliseconds each stage that ran took (lexical, vector, fusion, boost, graph, rerank, fold, mmr, parent) and the total',
  },
] as const satisfies readonly SearchParam[];

type Param = (typeof SEARCH_PARAMS)[number];
type ValueOf<P extends Param> = P extends { values: readonly (infer V)[] }
  ? V
  : P['type'] extends 'number' | 'integer'
    ? number
    : P['type'] extends 'boolean'
      ? boolean
      : P['type'] extends 'stringList'
        ? string[]
        : string;
type RequiredPart<Key extends 'name' | 'wire'> = {
  [P in Param as P extends { required: true } ? P[Key] : never]: ValueOf<P>;
};
type OptionalPart<Key extends 'name' | 'wire'> = {
  [P in Param as P extends { required: true } ? never : P[Key]]?: ValueOf<P> | undefined;
};
type Flatten<T> = { [K in keyof T]: T[K] };

/** A search request as the app takes it (camelCase). */
export type SearchRequest = Flatten<RequiredPart<'name'> & OptionalPart<'name'>>;
/** The same request as the MCP tool and JSON clients send it (snake_case). */
export type SearchWireRequest = Flatten<RequiredPart<'wire'> & OptionalPart<'wire'>>;

const BY_NAME: ReadonlyMap<string, SearchParam> = new Map(SEARCH_PARAMS.map((p) => [p.name, p]));
const BY_WIRE: ReadonlyMap<string, SearchParam> = new Map(SEARCH_PARAMS.map((p) => [p.wire, p]));

/** The snake_case name of a parameter (or of a filter in `filter_applied`); an unknown name is returned as is. */
export function wireName(name: string): string {
  return BY_NAME.get(name)?.wire ?? name;
}

/** The values a choice parameter takes, in the table's order; none for another parameter. */
export function choicesOf(name: string): readonly string[] {
  return BY_NAME.get(name)?.values ?? [];
}

/** The same object with snake_case keys, in its own key order; keys that are not parameters are kept. */
export function toWireKeys(values: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [wireName(key), value]));
}

/** The camelCase request from snake_case arguments; keys that are not parameters are kept for the schema to refuse. */
export function fromWireKeys(values: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [BY_WIRE.get(key)?.name ?? key, value]),
  );
}
