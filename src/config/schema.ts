// The groove.toml schema: strict zod objects (unknown keys rejected), snake_case as written in the file.
import * as z from 'zod';
import { CODE_LANGUAGE_IDS, PARSER_IDS } from '../document/document-formats.js';
import { FOLD_MODES } from '../rank/fold-hits.js';

const finite = () => z.number().refine(Number.isFinite, 'must be a finite number');
const weight = () => finite().min(0).max(1e6);
const nonEmptyString = () => z.string().min(1);

const sizeValue = () =>
  z.union([
    z.number().int().min(1),
    z
      .string()
      .regex(
        /^\s*\d+\s*(b|kb|mb|gb|kib|mib|gib)?\s*$/i,
        'must be a byte count like 52428800, "50MiB" or "20MB"',
      ),
  ]);

function buildConfigFileSchema() {
  return z.strictObject({
    kb_path: nonEmptyString().optional(),
    db_path: nonEmptyString().optional(),
    model: nonEmptyString().optional(),
    model_dir: nonEmptyString().optional(),
    reranker: nonEmptyString().optional(),
    rerank_by_default: z.boolean().optional(),
    reranker_max_batch_tokens: z.number().int().min(1).max(1_048_576).optional(),
    offline: z.boolean().optional(),
    exclude_dirs: z.array(nonEmptyString()).max(256).optional(),
    exclude_headings: z.array(nonEmptyString()).max(256).optional(),
    index: z
      .strictObject({
        max_file_size: sizeValue().optional(),
        fail_on_frontmatter_error: z.boolean().optional(),
      })
      .optional(),
    chunking: z
      .strictObject({
        max_heading_level: z.number().int().min(1).max(6).optional(),
        max_chunk_bytes: z.number().int().min(256).max(1_048_576).optional(),
        min_chunk_bytes: z.number().int().min(0).max(4096).optional(),
      })
      .optional(),
    parsers: z
      .strictObject({
        enabled: z.array(z.enum(PARSER_IDS)).min(1).optional(),
        timeout_seconds: z.number().int().min(1).max(3600).optional(),
        max_decompressed_size: sizeValue().optional(),
        max_memory: sizeValue().optional(),
        max_pages: z.number().int().min(1).max(100_000).optional(),
        max_sheets: z.number().int().min(1).max(10_000).optional(),
        max_cells_per_sheet: z.number().int().min(1).max(10_000_000).optional(),
        max_slides: z.number().int().min(1).max(100_000).optional(),
        max_text_chars: z.number().int().min(1000).max(100_000_000).optional(),
        code: z
          .strictObject({
            languages: z
              .array(z.enum(CODE_LANGUAGE_IDS as [string, ...string[]]))
              .min(1)
              .optional(),
          })
          .optional(),
      })
      .optional(),
    best_practice: z
      .strictObject({
        path_templates: z
          .array(
            z
              .string()
              .min(1)
              .max(512)
              .refine((t) => t.includes('{target}'), 'each template must contain {target}'),
          )
          .max(16)
          .optional(),
      })
      .optional(),
    quality_filter: z
      .strictObject({ enabled: z.boolean().optional(), threshold: finite().min(0).max(1).optional() })
      .optional(),
    watch: z
      .strictObject({
        enabled: z.boolean().optional(),
        debounce_ms: z.number().int().min(0).max(60_000).optional(),
      })
      .optional(),
    transport: z
      .strictObject({
        kind: z.enum(['stdio', 'http']).optional(),
        http: z
          .strictObject({
            bind: nonEmptyString().optional(),
            port: z.number().int().min(0).max(65535).optional(),
            allowed_hosts: z.array(nonEmptyString()).max(64).optional(),
            allowed_origins: z.array(nonEmptyString()).max(64).optional(),
            max_sessions: z.number().int().min(1).max(10_000).optional(),
            token: nonEmptyString().optional(),
            healthz_public: z.boolean().optional(),
          })
          .optional(),
      })
      .optional(),
    storage: z
      .strictObject({
        backend: z.enum(['sqlite', 'postgres']).optional(),
        url: z
          .string()
          .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a URL like "postgres://user@host:5432/groove"')
          .optional(),
        kb: z
          .string()
          .regex(/^[a-z0-9_-]{1,63}$/, 'must be 1 to 63 of a-z, 0-9, "_" and "-"')
          .optional(),
      })
      .optional(),
    search: z
      .strictObject({
        limit: z.number().int().min(1).max(1000).optional(),
        min_confidence_ratio: finite().min(0).optional(),
        memory_budget_mb: z.number().int().min(1).max(1_048_576).optional(),
        fold: z.enum(FOLD_MODES).optional(),
        mmr: z
          .strictObject({
            enabled: z.boolean().optional(),
            lambda: finite().min(0).max(1).optional(),
            same_doc_penalty: finite().min(0).max(1).optional(),
          })
          .optional(),
        parent_retriever: z
          .strictObject({
            enabled: z.boolean().optional(),
            whole_doc_threshold_tokens: z.number().int().min(0).max(8192).optional(),
            max_expanded_tokens: z.number().int().min(1).max(8192).optional(),
          })
          .optional(),
        boost: z
          .strictObject({
            enabled: z.boolean().optional(),
            strength: finite().min(0).max(100).optional(),
            half_life_days: finite().min(0.1).max(36_500).optional(),
            min_judgments: z.number().int().min(1).max(1000).optional(),
            horizon_days: finite().min(1).max(36_500).optional(),
          })
          .optional(),
        graph: z
          .strictObject({
            enabled: z.boolean().optional(),
            hops: z.number().int().min(1).max(3).optional(),
            max_added_per_hit: z.number().int().min(1).max(20).optional(),
            weight: finite().min(0).max(1).optional(),
            links: z.boolean().optional(),
            co_helpful: z.boolean().optional(),
          })
          .optional(),
        fusion: z
          .strictObject({
            rrf_k: finite().min(1).max(1e6).optional(),
            bm25_heading_weight: weight().optional(),
            bm25_context_weight: weight().optional(),
            bm25_content_weight: weight().optional(),
          })
          .optional(),
      })
      .optional(),
    contextual: z.strictObject({ enabled: z.boolean().optional() }).optional(),
    embedding: z
      .strictObject({
        provider: z.enum(['transformers', 'openai-compatible', 'ollama', 'none']).optional(),
        endpoint: z.url().optional(),
        model: nonEmptyString().optional(),
        dimension: z.number().int().min(1).max(16_384).optional(),
        api_key: nonEmptyString().optional(),
        timeout_seconds: finite().min(1).max(600).optional(),
        max_retries: z.number().int().min(0).max(10).optional(),
        batch_size: z.number().int().min(1).max(1024).optional(),
        max_input_chars: z.number().int().min(1).max(1_000_000).optional(),
        pooling: z.enum(['mean', 'cls']).optional(),
        query_prefix: z.string().max(1024).optional(),
        passage_prefix: z.string().max(1024).optional(),
      })
      .optional(),
    eval: z
      .strictObject({
        golden: nonEmptyString().optional(),
        history_size: z.number().int().min(1).max(1000).optional(),
        k_values: z.array(z.number().int().min(1).max(1000)).min(1).max(16).optional(),
        regression_threshold: finite().min(0).max(1).optional(),
        max_golden_age_days: z.number().int().min(1).max(36_500).optional(),
        golden_drift_warn: finite().min(0).max(1).optional(),
      })
      .optional(),
    feedback: z
      .strictObject({
        judgments_per_minute: z.number().int().min(1).max(100_000).optional(),
        max_judgments: z.number().int().min(1).max(10_000_000).optional(),
      })
      .optional(),
  });
}

let built: ReturnType<typeof buildConfigFileSchema> | null = null;

/** The groove.toml schema, built on first use (only a run that reads a config file pays for it). */
export function configFileSchema(): ReturnType<typeof buildConfigFileSchema> {
  built ??= buildConfigFileSchema();
  return built;
}

export type ConfigFile = z.infer<ReturnType<typeof buildConfigFileSchema>>;
