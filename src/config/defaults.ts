// The one place every built-in default lives. docs/configuration.md documents each key with its range.
import { DEFAULT_CODE_LANGUAGES } from '../document/document-formats.js';
import type { FoldMode } from '../rank/fold-hits.js';

export const DEFAULT_EXCLUDE_DIRS = [
  '.obsidian',
  '.git',
  'node_modules',
  'target',
  '.vscode',
  '.idea',
] as const;
/** Directories skipped whatever `exclude_dirs` says. */
export const ALWAYS_EXCLUDED_DIRS = ['.git', '.svn', 'node_modules'] as const;

export const MIB = 1024 * 1024;

/** Built-in settings; resolve-config.ts deep-copies them before merging the file and the CLI on top. */
export const DEFAULTS = {
  /** Embedding model id from the registry, or `none` for a lexical-only index. */
  model: 'multilingual-e5-small',
  /** Cross-encoder id, or `none`. */
  reranker: 'none',
  /** Rerank every search when a reranker is configured (the call can still opt out). */
  rerankByDefault: true,
  /**
   * Padded tokens per reranker inference batch (pairs × longest pair): long pairs go in smaller batches, so
   * attention memory stays bounded. 1 – 1048576; a single pair longer than this still runs alone.
   */
  rerankerMaxBatchTokens: 4096,
  /** Never touch the network (also `--offline` / `GROOVE_OFFLINE=1`). */
  offline: false,
  excludeDirs: [...DEFAULT_EXCLUDE_DIRS] as string[],
  /** Sections whose heading contains any of these substrings are dropped. */
  excludeHeadings: [] as string[],
  index: {
    /** Files larger than this many bytes are skipped with a warning. 1 B – 1 GiB. */
    maxFileBytes: 50 * MIB,
    /** Exit 1 after a run in which some frontmatter could not be parsed. */
    failOnFrontmatterError: false,
  },
  chunking: {
    /** Headings of level 1..maxHeadingLevel start a new chunk. 1–6. */
    maxHeadingLevel: 3,
    /** Sections longer than this many UTF-8 bytes are split at paragraph boundaries. 256 – 1 MiB. */
    maxChunkBytes: 4000,
    /** Sections shorter than this are merged into their predecessor. 0 – 4096. */
    minChunkBytes: 50,
  },
  parsers: {
    /** Enabled parser ids: `md`, `txt`, `pdf`, `docx`, `xlsx`, `pptx`, `code`. */
    enabled: ['md'] as string[],
    /** Wall-clock seconds one file's extraction may take; the extraction process is stopped then. 1 – 3600. */
    timeoutSeconds: 30,
    /** RSS the extraction process may reach while extracting one file; past it the file is refused. ≥ 128 MiB. */
    maxMemoryBytes: 768 * MIB,
    /** Decompressed bytes of one DOCX/XLSX/PPTX archive; past it the file is refused (zip bombs). */
    maxDecompressedBytes: 200 * MIB,
    /** PDF pages read per file; later pages are left out. */
    maxPages: 2000,
    /** Workbook sheets read per file. */
    maxSheets: 100,
    /** Non-empty cells read per sheet; the rest of the sheet is left out. */
    maxCellsPerSheet: 200_000,
    /** Slides read per file. */
    maxSlides: 1000,
    /** Characters of extracted text kept per file. */
    maxTextChars: 5_000_000,
    /** Languages the `code` parser claims (see document/document-formats.ts for the list and their extensions). */
    codeLanguages: [...DEFAULT_CODE_LANGUAGES] as string[],
    /** The extensions the enabled parsers claim; derived by resolve-config, never set directly. */
    extensions: ['md'] as string[],
  },
  bestPractice: {
    /** KB-relative paths tried in order for get_best_practice, each with `{target}`; empty = not configured. */
    pathTemplates: [] as string[],
  },
  qualityFilter: {
    enabled: true,
    /** Chunks scoring below this are hidden unless `include_low_quality`. 0–1. */
    threshold: 0.3,
  },
  watch: {
    enabled: true,
    /** 0 – 60000 ms. */
    debounceMs: 500,
  },
  transport: {
    kind: 'stdio' as 'stdio' | 'http',
    http: {
      bind: '127.0.0.1',
      port: 3100,
      allowedHosts: [] as string[],
      allowedOrigins: [] as string[],
      /** 1 – 10000. */
      maxSessions: 256,
      token: null as string | null,
      healthzPublic: true,
    },
  },
  search: {
    /** Default result count. 1–1000. */
    limit: 5,
    /** low_confidence when top1 / mean < ratio. 0 disables. Finite, ≥ 0. */
    minConfidenceRatio: 1.5,
    /**
     * MiB the in-memory search snapshots of a long-lived process may hold (vector codes first, then word
     * postings); a snapshot that does not fit is not built and its leg reads the index file instead. null: no cap.
     */
    memoryBudgetMb: null as number | null,
    /** Fold lower hits of a section or document already shown into its first hit: none, section, document. */
    fold: 'section' as FoldMode,
    mmr: { enabled: false, lambda: 0.7, sameDocPenalty: 0.0 },
    parentRetriever: { enabled: false, wholeDocThresholdTokens: 100, maxExpandedTokens: 2000 },
    /**
     * Raise documents agents judged `helped` and lower those judged noise or wrong (rank/feedback-boost.ts).
     * strength 0 – 100: the largest boost is strength × (1/(rrf_k + 1) − 1/(rrf_k + 2)), one leg's score step
     * between ranks 1 and 2, so at the top no boost passes more than `strength` hits; half_life_days 0.1 – 36500: a judgment's
     * weight halves every this many days; min_judgments 1 – 1000: fewer judgments than this, no boost;
     * horizon_days 1 – 36500: older judgments no longer count (the co-helpful graph edges use it too).
     */
    boost: { enabled: false, strength: 1, halfLifeDays: 90, minJudgments: 2, horizonDays: 365 },
    /**
     * Pull in documents connected to the top hits (rank/graph-hop.ts). hops 1 – 3; max_added_per_hit 1 – 20;
     * weight 0 – 1: a pulled-in hit scores weight × parent score × edge weight; `links`: follow links written
     * in the notes; `co_helpful`: follow documents judged helped in the same task.
     */
    graph: { enabled: false, hops: 1, maxAddedPerHit: 2, weight: 1.0, links: true, coHelpful: true },
    fusion: {
      /** RRF constant. Finite, 1 – 1e6. */
      rrfK: 60.0,
      bm25HeadingWeight: 2.0,
      bm25ContextWeight: 1.0,
      bm25ContentWeight: 1.0,
    },
  },
  contextual: {
    /** Prefix the breadcrumb to embedding and reranker input (the FTS context column always has it). */
    enabled: false,
  },
  embedding: {
    /** `transformers` (local ONNX), `openai-compatible`, `ollama`, or `none`. */
    provider: 'transformers' as 'transformers' | 'openai-compatible' | 'ollama' | 'none',
    endpoint: null as string | null,
    /** Model name sent to an HTTP endpoint. */
    model: null as string | null,
    dimension: null as number | null,
    apiKey: null as string | null,
    /** 1 – 600 s. */
    timeoutSeconds: 60,
    /** 0 – 10. */
    maxRetries: 3,
    /** Texts per request or inference batch. 1 – 1024. */
    batchSize: 32,
    /** Inputs longer than this many characters are truncated before embedding. */
    maxInputChars: 8000,
    /** A local model folder's pooling (`mean`, `cls`); null: the folder says (see docs/configuration.md). */
    pooling: null as 'mean' | 'cls' | null,
    /** Markers prepended to queries / passages (a local folder or an endpoint); null: the folder says, or none. */
    queryPrefix: null as string | null,
    passagePrefix: null as string | null,
  },
  storage: {
    /** Where the index lives: `sqlite` (one file, `db_path`) or `postgres` (a shared server, `url`). */
    backend: 'sqlite' as 'sqlite' | 'postgres',
    /** `postgres://user:password@host:port/database` (`GROOVE_DATABASE_URL` wins); never printed with its password. */
    url: null as string | null,
    /** This KB's name inside a shared database: 1 – 63 of a–z, 0–9, `_`, `-`; several KBs share one database. */
    kb: 'default',
  },
  eval: {
    /** Default `<kb>/.groove-eval.yml`. */
    golden: null as string | null,
    historySize: 10,
    kValues: [1, 5, 10] as number[],
    regressionThreshold: 0.05,
    maxGoldenAgeDays: 30,
    goldenDriftWarn: 0.05,
  },
  feedback: {
    /** Judged items one client (an MCP session) may record per minute, 1 – 100000; also its largest burst. */
    judgmentsPerMinute: 600,
    /** Judged items the index keeps in all, 1 – 10000000; a record that would pass it is refused. */
    maxJudgments: 100_000,
  },
};

export type Defaults = typeof DEFAULTS;
