// Finds groove.toml, validates it, and merges CLI > file > DEFAULTS into one ResolvedConfig.
import os from 'node:os';
import path from 'node:path';
import { databaseUrlProblem, maskDatabaseUrl } from '../core/database-url.js';
import { extensionsOfParsers } from '../document/document-formats.js';
import { GrooveError } from '../errors.js';
import type { EmbeddingSetup, HubEnvironment } from '../types.js';
import { findConfigFile, parseByteSize, readConfigFile } from './config-file.js';
import { DEFAULTS, type Defaults, MIB } from './defaults.js';
import { expandPath } from './expand-path.js';
import { type GrooveFolders, grooveFolders } from './groove-folders.js';
import { hubEnvironmentFrom, hubOfflineFrom } from './hub-environment.js';
import { applyKbEntry } from './kb-entry-settings.js';
import { registeredKb } from './kb-registry.js';
import type { ConfigFile } from './schema.js';

export interface ResolvedConfig extends Defaults {
  /** Absolute KB folder, or null when neither the CLI nor the file names one. */
  kbPath: string | null;
  /** Absolute index path the user named (`--db-path`, `db_path`), or null: the default (defaultIndexPath). */
  dbPath: string | null;
  /** The KB's registered name, or null for a KB known by its path only. */
  kbName: string | null;
  /** groove's data, config and cache folders (XDG, or GROOVE_HOME). */
  folders: GrooveFolders;
  /**
   * Where the settings that shape the index came from: only `explicit` (`--config`) and `kb-entry` (the KB's
   * registry entry) may drop documents; `found` (from the current folder) and `defaults` depend on where a run starts.
   */
  settingsSource: SettingsSource;
  /** `--model-dir`: a local transformers.js model folder used instead of a registry model. */
  localModelDir: string | null;
  /** Where registry models are downloaded: `GROOVE_MODEL_DIR`, else `model_dir`, else the user cache. */
  modelCacheDir: string | null;
  /** Absolute path of the groove.toml in use, or null. */
  configPath: string | null;
  /** Hugging Face mirror from `HF_ENDPOINT`, or null for the default hub. */
  hubEndpoint: string | null;
  /** HF_TOKEN, the proxy variables and the Hugging Face hub cache (HF_HUB_CACHE, HF_HOME). */
  hub: HubEnvironment;
  /**
   * True when the file or the CLI chose the embedding model (model, --model-dir, or [embedding]); otherwise
   * commands adopt the model an existing index records instead of refusing it as a mismatch.
   */
  modelExplicit: boolean;
  /**
   * Pooling and prefixes the index this command follows records for the same folder or endpoint, used where
   * neither the user nor the folder says (`unrecorded`: an index built before groove recorded them); set when
   * the index is opened, null before.
   */
  recordedSetup: EmbeddingSetup | 'unrecorded' | null;
}

export type SettingsSource = 'explicit' | 'kb-entry' | 'found' | 'defaults';

/** Values given on the command line; each one wins over the file. */
export interface ConfigOverrides {
  kbPath?: string;
  dbPath?: string;
  model?: string;
  modelDir?: string;
  /** `--pooling`, `--query-prefix`, `--passage-prefix`: the setup of a local model folder (prefixes: endpoints too). */
  pooling?: 'mean' | 'cls';
  queryPrefix?: string;
  passagePrefix?: string;
  reranker?: string;
  offline?: boolean;
}

export interface ResolveConfigOptions {
  /** `--config PATH`; a missing file is an error. */
  configPath?: string;
  cwd: string;
  env: Record<string, string | undefined>;
  overrides?: ConfigOverrides;
  /** `--kb NAME`: a registered KB; its folder and settings replace the groove.toml search (docs/kbs.md). */
  kb?: string;
}

export { expandPath, findConfigFile, parseByteSize, readConfigFile };

function cloneDefaults(): ResolvedConfig {
  const copy = structuredClone(DEFAULTS);
  return {
    ...copy,
    kbPath: null,
    kbName: null,
    dbPath: null,
    folders: { dataDir: '', configDir: '', cacheDir: '' },
    settingsSource: 'defaults',
    localModelDir: null,
    hubEndpoint: null,
    hub: { token: null, hubCacheDir: null, httpsProxy: null, httpProxy: null, noProxy: null },
    modelCacheDir: null,
    configPath: null,
    modelExplicit: false,
    recordedSetup: null,
  };
}

function applyFile(config: ResolvedConfig, file: ConfigFile, filePath: string): void {
  const baseDir = path.dirname(filePath);
  if (file.kb_path !== undefined) config.kbPath = expandPath(file.kb_path, baseDir);
  if (file.db_path !== undefined) config.dbPath = expandPath(file.db_path, baseDir);
  if (file.model_dir !== undefined) config.modelCacheDir = expandPath(file.model_dir, baseDir);
  if (file.model !== undefined) config.model = file.model;
  if (file.model !== undefined || file.embedding?.provider !== undefined) config.modelExplicit = true;
  if (file.reranker !== undefined) config.reranker = file.reranker;
  if (file.rerank_by_default !== undefined) config.rerankByDefault = file.rerank_by_default;
  if (file.reranker_max_batch_tokens !== undefined)
    config.rerankerMaxBatchTokens = file.reranker_max_batch_tokens;
  if (file.offline !== undefined) config.offline = file.offline;
  if (file.exclude_dirs !== undefined) config.excludeDirs = file.exclude_dirs;
  if (file.exclude_headings !== undefined) config.excludeHeadings = file.exclude_headings;
  const index = file.index ?? {};
  if (index.max_file_size !== undefined) config.index.maxFileBytes = parseByteSize(index.max_file_size);
  if (index.fail_on_frontmatter_error !== undefined)
    config.index.failOnFrontmatterError = index.fail_on_frontmatter_error;
  const chunking = file.chunking ?? {};
  if (chunking.max_heading_level !== undefined) config.chunking.maxHeadingLevel = chunking.max_heading_level;
  if (chunking.max_chunk_bytes !== undefined) config.chunking.maxChunkBytes = chunking.max_chunk_bytes;
  if (chunking.min_chunk_bytes !== undefined) config.chunking.minChunkBytes = chunking.min_chunk_bytes;
  if (file.parsers?.enabled !== undefined) config.parsers.enabled = [...new Set(file.parsers.enabled)];
  assignParserLimits(config, file.parsers ?? {});
  if (file.best_practice?.path_templates !== undefined)
    config.bestPractice.pathTemplates = file.best_practice.path_templates;
  assignDefined(config.qualityFilter, {
    enabled: file.quality_filter?.enabled,
    threshold: file.quality_filter?.threshold,
  });
  assignDefined(config.watch, { enabled: file.watch?.enabled, debounceMs: file.watch?.debounce_ms });
  applyTransport(config, file);
  assignDefined(config.storage, {
    backend: file.storage?.backend,
    url: file.storage?.url,
    kb: file.storage?.kb,
  });
  applySearch(config, file, filePath);
  assignDefined(config.contextual, { enabled: file.contextual?.enabled });
  const e = file.embedding ?? {};
  assignDefined(config.embedding, {
    provider: e.provider,
    endpoint: e.endpoint,
    model: e.model,
    dimension: e.dimension,
    apiKey: e.api_key,
    timeoutSeconds: e.timeout_seconds,
    maxRetries: e.max_retries,
    batchSize: e.batch_size,
    maxInputChars: e.max_input_chars,
    pooling: e.pooling,
    queryPrefix: e.query_prefix,
    passagePrefix: e.passage_prefix,
  });
  const ev = file.eval ?? {};
  assignDefined(config.eval, {
    golden: ev.golden === undefined ? undefined : expandPath(ev.golden, baseDir),
    historySize: ev.history_size,
    kValues: ev.k_values,
    regressionThreshold: ev.regression_threshold,
    maxGoldenAgeDays: ev.max_golden_age_days,
    goldenDriftWarn: ev.golden_drift_warn,
  });
  assignDefined(config.feedback, {
    judgmentsPerMinute: file.feedback?.judgments_per_minute,
    maxJudgments: file.feedback?.max_judgments,
  });
}

function applyTransport(config: ResolvedConfig, file: ConfigFile): void {
  if (file.transport?.kind !== undefined) config.transport.kind = file.transport.kind;
  const h = file.transport?.http ?? {};
  assignDefined(config.transport.http, {
    bind: h.bind,
    port: h.port,
    allowedHosts: h.allowed_hosts,
    allowedOrigins: h.allowed_origins,
    maxSessions: h.max_sessions,
    token: h.token,
    healthzPublic: h.healthz_public,
  });
}

function applySearch(config: ResolvedConfig, file: ConfigFile, filePath: string): void {
  const s = file.search ?? {};
  assignDefined(config.search, {
    limit: s.limit,
    minConfidenceRatio: s.min_confidence_ratio,
    memoryBudgetMb: s.memory_budget_mb,
    fold: s.fold,
  });
  assignDefined(config.search.mmr, {
    enabled: s.mmr?.enabled,
    lambda: s.mmr?.lambda,
    sameDocPenalty: s.mmr?.same_doc_penalty,
  });
  assignDefined(config.search.parentRetriever, {
    enabled: s.parent_retriever?.enabled,
    wholeDocThresholdTokens: s.parent_retriever?.whole_doc_threshold_tokens,
    maxExpandedTokens: s.parent_retriever?.max_expanded_tokens,
  });
  assignDefined(config.search.boost, {
    enabled: s.boost?.enabled,
    strength: s.boost?.strength,
    halfLifeDays: s.boost?.half_life_days,
    minJudgments: s.boost?.min_judgments,
    horizonDays: s.boost?.horizon_days,
  });
  assignDefined(config.search.graph, {
    enabled: s.graph?.enabled,
    hops: s.graph?.hops,
    maxAddedPerHit: s.graph?.max_added_per_hit,
    weight: s.graph?.weight,
    links: s.graph?.links,
    coHelpful: s.graph?.co_helpful,
  });
  assignDefined(config.search.fusion, {
    rrfK: s.fusion?.rrf_k,
    bm25HeadingWeight: s.fusion?.bm25_heading_weight,
    bm25ContextWeight: s.fusion?.bm25_context_weight,
    bm25ContentWeight: s.fusion?.bm25_content_weight,
  });
  const pr = config.search.parentRetriever;
  if (pr.maxExpandedTokens <= pr.wholeDocThresholdTokens) {
    throw new GrooveError(
      'CONFIG_INVALID',
      `config "${filePath}": [search.parent_retriever] max_expanded_tokens (${pr.maxExpandedTokens}) must be greater than whole_doc_threshold_tokens (${pr.wholeDocThresholdTokens})`,
      { hint: 'raise max_expanded_tokens or lower whole_doc_threshold_tokens' },
    );
  }
}

function assignDefined<T extends object>(target: T, values: { [K in keyof T]?: T[K] | undefined }): void {
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  }
}

function applyEnvAndOverrides(config: ResolvedConfig, options: ResolveConfigOptions): void {
  const { env, cwd } = options;
  if (env.GROOVE_MODEL_DIR) config.modelCacheDir = expandPath(env.GROOVE_MODEL_DIR, cwd);
  if (env.GROOVE_OFFLINE === '1' || env.GROOVE_OFFLINE === 'true' || hubOfflineFrom(env))
    config.offline = true;
  if (env.HF_ENDPOINT) config.hubEndpoint = env.HF_ENDPOINT;
  config.hub = hubEnvironmentFrom(env, os.homedir(), cwd);
  if (env.GROOVE_EMBEDDING_API_KEY) config.embedding.apiKey = env.GROOVE_EMBEDDING_API_KEY;
  if (env.GROOVE_HTTP_TOKEN) config.transport.http.token = env.GROOVE_HTTP_TOKEN;
  if (env.GROOVE_DATABASE_URL) config.storage.url = env.GROOVE_DATABASE_URL;
  const o = options.overrides ?? {};
  if (o.kbPath !== undefined) config.kbPath = expandPath(o.kbPath, cwd);
  if (o.dbPath !== undefined) config.dbPath = expandPath(o.dbPath, cwd);
  if (o.modelDir !== undefined) config.localModelDir = expandPath(o.modelDir, cwd);
  if (o.model !== undefined) config.model = o.model;
  if (o.model !== undefined || o.modelDir !== undefined) config.modelExplicit = true;
  assignDefined(config.embedding, {
    pooling: o.pooling,
    queryPrefix: o.queryPrefix,
    passagePrefix: o.passagePrefix,
  });
  if (o.reranker !== undefined) config.reranker = o.reranker;
  if (o.offline) config.offline = true;
  if (config.model === 'none') config.embedding.provider = 'none';
}

/** Discover, read and validate groove.toml, then merge CLI > env > file > DEFAULTS. */
export function resolveConfig(options: ResolveConfigOptions): ResolvedConfig {
  const config = cloneDefaults();
  const file = options.kb !== undefined ? applyNamedKb(config, options.kb, options) : findConfigFile(options);
  if (options.kb === undefined && file !== null) {
    applyConfigFile(config, file);
    config.settingsSource = options.configPath === undefined ? 'found' : 'explicit';
  }
  config.folders = grooveFolders(options.env, os.homedir(), options.cwd);
  applyEnvAndOverrides(config, options);
  checkStorage(
    config,
    options.env.GROOVE_DATABASE_URL ? 'GROOVE_DATABASE_URL' : `[storage] url in "${file}"`,
  );
  return config;
}

function applyConfigFile(config: ResolvedConfig, file: string | null): void {
  if (file === null) return;
  applyFile(config, readConfigFile(file), file);
  config.configPath = file;
}

/**
 * --kb NAME, later layers winning: its config file, its entry, an explicit --config; no groove.toml search.
 * Returns the last config file applied, for messages that name where a setting came from.
 */
function applyNamedKb(config: ResolvedConfig, name: string, options: ResolveConfigOptions): string | null {
  const entry = registeredKb(name, grooveFolders(options.env, os.homedir(), options.cwd).configDir);
  applyConfigFile(config, entry.configFile);
  applyKbEntry(config, entry);
  config.settingsSource = 'kb-entry';
  let file = entry.configFile;
  if (options.configPath !== undefined) {
    file = findConfigFile(options);
    applyConfigFile(config, file);
    config.settingsSource = 'explicit';
  }
  config.kbPath = entry.root;
  // In a shared database a registered KB is its own KB: named as registered unless a config file names one.
  if (![entry.configFile, file].some((f) => f !== null && readConfigFile(f).storage?.kb !== undefined))
    config.storage.kb = name;
  return file;
}

/**
 * A postgres backend needs a URL that says where and parses (checked before any server is asked); the URL is
 * quoted with its password masked, and `source` names where it was set.
 */
function checkStorage(config: ResolvedConfig, source: string): void {
  const { backend, url } = config.storage;
  if (backend !== 'postgres') return;
  if (url === null) {
    throw new GrooveError('CONFIG_INVALID', '[storage] backend = "postgres" needs a database URL', {
      hint: 'set [storage] url = "postgres://user@host:5432/db" in groove.toml, or GROOVE_DATABASE_URL',
    });
  }
  if (!/^postgres(ql)?:\/\/\S+$/.test(url)) {
    throw new GrooveError(
      'CONFIG_INVALID',
      `the database URL "${maskDatabaseUrl(url)}" is not a postgres URL`,
      {
        hint: 'write it as postgres://user:password@host:5432/database (GROOVE_DATABASE_URL or [storage] url)',
      },
    );
  }
  const problem = databaseUrlProblem(url);
  if (problem !== null) {
    throw new GrooveError('CONFIG_INVALID', `${source} is not a valid database URL: ${problem}`, {
      hint: 'write it as postgres://user:password@host:5432/database, percent-encoding special characters in the password; no server was contacted',
    });
  }
}

/** `[parsers] max_memory`: below 128 MiB the extraction process could not even load its parsers. */
function extractionMemory(value: number | string): number {
  const bytes = parseByteSize(value);
  if (bytes < 128 * MIB) {
    throw new GrooveError('CONFIG_INVALID', `[parsers] max_memory "${value}" is under 128MiB`, {
      hint: 'the extraction process needs at least "128MiB"; the default is "768MiB"',
    });
  }
  return bytes;
}

/** `[parsers]` caps and code languages, and the extensions the enabled parsers claim. */
function assignParserLimits(config: ResolvedConfig, parsers: NonNullable<ConfigFile['parsers']>): void {
  const target = config.parsers;
  if (parsers.timeout_seconds !== undefined) target.timeoutSeconds = parsers.timeout_seconds;
  if (parsers.max_decompressed_size !== undefined)
    target.maxDecompressedBytes = parseByteSize(parsers.max_decompressed_size);
  if (parsers.max_memory !== undefined) target.maxMemoryBytes = extractionMemory(parsers.max_memory);
  if (parsers.max_pages !== undefined) target.maxPages = parsers.max_pages;
  if (parsers.max_sheets !== undefined) target.maxSheets = parsers.max_sheets;
  if (parsers.max_cells_per_sheet !== undefined) target.maxCellsPerSheet = parsers.max_cells_per_sheet;
  if (parsers.max_slides !== undefined) target.maxSlides = parsers.max_slides;
  if (parsers.max_text_chars !== undefined) target.maxTextChars = parsers.max_text_chars;
  if (parsers.code?.languages !== undefined) target.codeLanguages = [...new Set(parsers.code.languages)];
  target.extensions = extensionsOfParsers(target.enabled, target.codeLanguages);
}
