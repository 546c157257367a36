// Finds groove.toml, validates it, and merges CLI > file > DEFAULTS into one ResolvedConfig.
import os from 'node:os';
import { databaseUrlProblem, maskDatabaseUrl } from '../core/database-url.js';
import { GrooveError } from '../errors.js';
import type { EmbeddingSetup, HubEnvironment } from '../types.js';
import { parseByteSize } from './byte-size.js';
import { findConfigFile, readConfigFile } from './config-file.js';
import { applyFileSettings } from './config-file-settings.js';
import { DEFAULTS, type Defaults } from './defaults.js';
import { expandPath } from './expand-path.js';
import { type GrooveFolders, grooveFolders } from './groove-folders.js';
import { hubEnvironmentFrom, hubOfflineFrom } from './hub-environment.js';
import { applyKbEntry } from './kb-entry-settings.js';
import { registeredKb } from './kb-registry.js';

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

/** Values given on the command line or in the environment win over the file. */
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
  if (o.pooling !== undefined) config.embedding.pooling = o.pooling;
  if (o.queryPrefix !== undefined) config.embedding.queryPrefix = o.queryPrefix;
  if (o.passagePrefix !== undefined) config.embedding.passagePrefix = o.passagePrefix;
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
  applyFileSettings(config, readConfigFile(file), file);
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
