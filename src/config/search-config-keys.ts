// The groove.toml keys of searching, embedding, evaluation and feedback, in the order the file's sections are
// checked; part of the one table of keys (config-keys.ts).
import { FOLD_MODES } from '../rank/fold-hits.js';
import { fraction, key, nonEmpty, searchParameter, weight } from './config-key.js';
import { expandPath } from './expand-path.js';

export const SEARCH_KEYS = [
  key('search.limit', { type: 'integer', min: 1, max: 1000, default: 5 }, searchParameter('limit')),
  key(
    'search.min_confidence',
    { type: 'number', min: 0, max: 1, default: 0.3 },
    `\`low_confidence\` is set below it; 0 disables it; \`groove tune\` fits it on a golden set with negative queries ` +
      `([docs/search.md](search.md#confidence)): ${searchParameter('min_confidence')}`,
  ),
  key(
    'search.memory_budget_mb',
    { type: 'integer', min: 1, max: 1_048_576, default: null, docDefault: '— (no cap)' },
    'MiB the in-memory search snapshots of a long-lived process (`groove serve`, a library facade) may hold; ' +
      'see [Memory budget](#memory-budget)',
  ),
  key(
    'search.fold',
    { type: 'choice', values: FOLD_MODES, default: 'section' },
    `fold lower hits of a section or of a document into the first one: ${searchParameter('fold')}; see ` +
      '[docs/eval.md](eval.md#folding)',
  ),
  key('search.mmr.enabled', { type: 'boolean', default: false }, searchParameter('mmr')),
  key('search.mmr.lambda', { ...fraction, default: 0.7 }, searchParameter('mmr_lambda')),
  key('search.mmr.same_doc_penalty', { ...fraction, default: 0.0 }, searchParameter('mmr_same_doc_penalty')),
  key(
    'search.parent_retriever.enabled',
    { type: 'boolean', default: false },
    searchParameter('parent_retriever'),
  ),
  key(
    'search.parent_retriever.whole_doc_threshold_tokens',
    { type: 'integer', min: 0, max: 8192, default: 100 },
    'a document this short is returned whole',
  ),
  key(
    'search.parent_retriever.max_expanded_tokens',
    { type: 'integer', min: 1, max: 8192, default: 2000 },
    'the most an expanded hit holds; greater than `whole_doc_threshold_tokens`',
  ),
  key(
    'search.boost.enabled',
    { type: 'boolean', default: false },
    `${searchParameter('boost')}; see [\`feedback-learning.md\`](feedback-learning.md)`,
  ),
  key(
    'search.boost.strength',
    { type: 'number', min: 0, max: 100, default: 1 },
    "the largest boost is `strength` × (1/(rrf_k+1) − 1/(rrf_k+2)), one leg's score step between ranks 1 and " +
      '2, so at the top no boost passes more than `strength` hits',
  ),
  key(
    'search.boost.half_life_days',
    { type: 'number', min: 0.1, max: 36_500, default: 90 },
    "a judgment's weight halves every this many days (the co-helpful graph edges age by it too)",
  ),
  key(
    'search.boost.min_judgments',
    { type: 'integer', min: 1, max: 1000, default: 2 },
    "a chunk with fewer judgments (its document's plus its heading's) is not boosted",
  ),
  key(
    'search.boost.horizon_days',
    { type: 'number', min: 1, max: 36_500, default: 365 },
    'older judgments count for neither the boost nor the graph edges',
  ),
  key('search.graph.enabled', { type: 'boolean', default: false }, searchParameter('graph')),
  key('search.graph.hops', { type: 'integer', min: 1, max: 3, default: 1 }, 'links followed from a top hit'),
  key(
    'search.graph.max_added_per_hit',
    { type: 'integer', min: 1, max: 20, default: 2 },
    'documents pulled in per hit',
  ),
  key(
    'search.graph.weight',
    { ...fraction, default: 1.0 },
    "a pulled-in hit scores weight × its parent's score × the edge weight",
  ),
  key(
    'search.graph.links',
    { type: 'boolean', default: true },
    'follow links written in the notes, both ways ([indexing.md](indexing.md#links-between-notes))',
  ),
  key(
    'search.graph.co_helpful',
    { type: 'boolean', default: true },
    'follow documents judged helped in the same task',
  ),
  key(
    'search.fusion.rrf_k',
    { type: 'number', min: 1, max: 1e6, default: 60.0 },
    'the reciprocal rank fusion constant',
  ),
  key('search.fusion.bm25_heading_weight', { ...weight, default: 2.0 }, 'BM25 weight of the heading column'),
  key(
    'search.fusion.bm25_context_weight',
    { ...weight, default: 1.0 },
    'BM25 weight of the breadcrumb column',
  ),
  key('search.fusion.bm25_content_weight', { ...weight, default: 1.0 }, 'BM25 weight of the text column'),
  key(
    'contextual.enabled',
    { type: 'boolean', default: false },
    'also prefix the breadcrumb to embedding and reranker input (the FTS `context` column always has it); ' +
      'changing it needs `--force`',
  ),
  key(
    'embedding.provider',
    {
      type: 'choice',
      values: ['transformers', 'openai-compatible', 'ollama', 'none'],
      default: 'transformers',
    },
    '`transformers` (local ONNX), an HTTP endpoint (`openai-compatible`, `ollama`), or `none`',
  ),
  key('embedding.endpoint', { type: 'url', default: null }, 'for HTTP providers: the endpoint URL'),
  key('embedding.model', { ...nonEmpty, default: null }, 'for HTTP providers: the model name sent'),
  key(
    'embedding.dimension',
    { type: 'integer', min: 1, max: 16_384, default: null },
    'for HTTP providers: the vector length',
  ),
  key('embedding.api_key', { ...nonEmpty, default: null }, '`GROOVE_EMBEDDING_API_KEY` wins; never logged'),
  key(
    'embedding.timeout_seconds',
    { type: 'number', min: 1, max: 600, default: 60 },
    'seconds an HTTP request may take',
  ),
  key(
    'embedding.max_retries',
    { type: 'integer', min: 0, max: 10, default: 3 },
    'retries of an HTTP request',
  ),
  key(
    'embedding.batch_size',
    { type: 'integer', min: 1, max: 1024, default: 32 },
    'inputs per request or inference batch (a local model also keeps each batch under 8192 padded tokens; ' +
      "the index's embedding stage hands the model four batches' worth per call and stores each call's " +
      'vectors in one transaction)',
  ),
  key(
    'embedding.max_input_chars',
    { type: 'integer', min: 1, max: 1_000_000, default: 8000 },
    'inputs are truncated to this many characters (a local model then reads an input longer than its token ' +
      'limit in windows, see `groove index`)',
  ),
  key(
    'embedding.pooling',
    { type: 'choice', values: ['mean', 'cls'], default: null },
    "how a local model folder's (`--model-dir`) token vectors are pooled, for a folder that does not say or " +
      'to override what it says (`--pooling` wins); refused with a registered model or an HTTP endpoint. See ' +
      "the README's `groove models` section for how a folder's setup is decided",
  ),
  key(
    'embedding.query_prefix',
    { type: 'string', max: 1024, default: null },
    'text put before each query (`""` for none): for a local model folder (default: what the folder says) ' +
      'or an HTTP endpoint (default: none); refused with a registered model; `--query-prefix` wins',
  ),
  key(
    'embedding.passage_prefix',
    { type: 'string', max: 1024, default: null },
    'text put before each indexed passage, as `query_prefix`; `--passage-prefix` wins',
  ),
  key(
    'eval.golden',
    {
      ...nonEmpty,
      read: expandPath,
      default: null,
      docDefault: "`<kb>/.groove-eval.yml`, else `golden.yml` in the KB's folder in groove's data folder",
    },
    'the golden file; golden build and import write to the latter by default ([eval.md](eval.md#golden-file))',
  ),
  key(
    'eval.history_size',
    { type: 'integer', min: 1, max: 1000, default: 10 },
    'eval runs kept in the history ([eval.md](eval.md))',
  ),
  key(
    'eval.k_values',
    {
      type: 'list',
      min: 1,
      max: 16,
      entry: { type: 'integer', min: 1, max: 1000 },
      default: [1, 5, 10] as number[],
    },
    'the k of recall@k and nDCG@k (`--k` wins)',
  ),
  key(
    'eval.regression_threshold',
    { ...fraction, default: 0.05 },
    '`--fail-on-regression` exits 1 when an aggregate metric fell by more than this',
  ),
  key(
    'eval.max_golden_age_days',
    { type: 'integer', min: 1, max: 36_500, default: 30 },
    'eval refuses a golden set older than this many days (`--allow-stale-golden` measures anyway)',
  ),
  key(
    'eval.golden_drift_warn',
    { ...fraction, default: 0.05 },
    '`groove doctor` warns when the corpus moved more than this since the golden set was judged',
  ),
  key(
    'feedback.judgments_per_minute',
    { type: 'integer', min: 1, max: 100_000, default: 600 },
    'judged items one client (one MCP session) may record with `record_feedback` per minute, refilled ' +
      'continuously; also the most one call may hold and the largest burst. More is refused with ' +
      '`FEEDBACK_RATE_LIMITED`',
  ),
  key(
    'feedback.max_judgments',
    { type: 'integer', min: 1, max: 10_000_000, default: 100_000 },
    'judged items the index keeps in all (every client together); a call that would pass it is refused with ' +
      '`FEEDBACK_FULL`',
  ),
] as const;
