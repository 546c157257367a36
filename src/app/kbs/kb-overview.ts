// `groove kb list` and `groove kb show`: each registered KB with its settings, what its index holds, and its
// health. Reads only: an index is opened read-only and never created, a KB whose folder vanished keeps its index.
import fs from 'node:fs';
import { checkKbName, findKbEntry, type KbEntry, readKbRegistry } from '../../config/kb-registry.js';
import { type ResolvedConfig, resolveConfig } from '../../config/resolve-config.js';
import { describeError, isGrooveError } from '../../errors.js';
import { ownIndexPath, withDefaultIndexPath } from '../indexing/index.js';
import { openKnowledgeBase } from '../knowledge-base.js';
import { type KbCommandContext, registryPath } from './registry-edits.js';

/** ok; the KB folder is gone (its index is kept); registered but never indexed; or something else is wrong. */
export type KbHealth = 'ok' | 'folder missing' | 'no index yet' | 'error';

export interface KbOverview {
  entry: KbEntry;
  /** The index path in effect (null when the settings cannot be resolved). */
  dbPath: string | null;
  backend: 'sqlite' | 'postgres' | null;
  /** The model the index was built with, else the one its settings name. */
  model: string | null;
  /** The parsers in effect. */
  parsers: string[];
  documents: number | null;
  chunks: number | null;
  lastIndexedAt: string | null;
  /** Bytes the index takes on disk (with its -wal and -shm files); null when there is none. */
  sizeBytes: number | null;
  health: KbHealth;
  /** What is wrong, for health `error`. */
  problem: string | null;
}

export interface KbListing {
  registry: string;
  kbs: KbOverview[];
}

export async function listKbs(context: KbCommandContext): Promise<KbListing> {
  const registry = readKbRegistry(registryPath(context));
  const kbs: KbOverview[] = [];
  for (const entry of registry.entries) kbs.push(await overviewOf(entry, context));
  return { registry: registry.file, kbs };
}

/** The registered KBs' names, in registry order (none when there is no registry yet). */
export function registeredKbNames(context: KbCommandContext): string[] {
  return readKbRegistry(registryPath(context)).entries.map((entry) => entry.name);
}

/** One KB's overview; KB_UNKNOWN when the registry has no such name. */
export async function showKb(name: string, context: KbCommandContext): Promise<KbOverview> {
  checkKbName(name);
  return overviewOf(findKbEntry(readKbRegistry(registryPath(context)), name), context);
}

/** The settings `--kb NAME` resolves to from any folder (the registry's own rules; see docs/kbs.md). */
export function kbSettings(name: string, context: KbCommandContext): ResolvedConfig {
  const config = withDefaultIndexPath(resolveConfig({ kb: name, cwd: context.cwd, env: context.env }));
  if (config.dbPath !== null) return config;
  // A KB whose folder vanished: its index is still looked for in its own folder, named after it.
  return { ...config, dbPath: ownIndexPath(config.folders, { realPath: '', name }) };
}

async function overviewOf(entry: KbEntry, context: KbCommandContext): Promise<KbOverview> {
  const empty: KbOverview = {
    entry,
    dbPath: null,
    backend: null,
    model: entry.model,
    parsers: entry.parsers ?? [],
    documents: null,
    chunks: null,
    lastIndexedAt: null,
    sizeBytes: null,
    health: 'error',
    problem: null,
  };
  let config: ResolvedConfig;
  try {
    config = kbSettings(entry.name, context);
  } catch (error) {
    return { ...empty, problem: describeError(error) };
  }
  const sqlite = config.storage.backend !== 'postgres';
  const base: KbOverview = {
    ...empty,
    dbPath: config.dbPath,
    backend: sqlite ? 'sqlite' : 'postgres',
    model: config.model,
    parsers: [...config.parsers.enabled],
    sizeBytes: sqlite && config.dbPath ? sizeOnDisk(config.dbPath) : null,
  };
  if (!fs.statSync(entry.root, { throwIfNoEntry: false })?.isDirectory())
    return { ...base, health: 'folder missing' };
  return withIndexCounts(base, config);
}

async function withIndexCounts(base: KbOverview, config: ResolvedConfig): Promise<KbOverview> {
  if (base.backend === 'sqlite' && base.sizeBytes === null) return { ...base, health: 'no index yet' };
  try {
    const kb = openKnowledgeBase(config, { readOnly: true });
    try {
      const status = await kb.describe();
      return {
        ...base,
        model: status.model,
        documents: status.documents,
        chunks: status.chunks,
        lastIndexedAt: status.lastIndexedAt,
        sizeBytes: base.sizeBytes ?? status.dbSizeBytes,
        health: 'ok',
      };
    } finally {
      await kb.close();
    }
  } catch (error) {
    if (isGrooveError(error) && error.code === 'INDEX_NOT_FOUND') return { ...base, health: 'no index yet' };
    return { ...base, health: 'error', problem: describeError(error) };
  }
}

/** Bytes of the index file and its -wal and -shm files; null when the index file does not exist. */
export function sizeOnDisk(dbPath: string): number | null {
  const main = fs.statSync(dbPath, { throwIfNoEntry: false });
  if (!main?.isFile()) return null;
  let total = main.size;
  for (const suffix of ['-wal', '-shm'])
    total += fs.statSync(`${dbPath}${suffix}`, { throwIfNoEntry: false })?.size ?? 0;
  return total;
}

export function kbOverviewToJson(overview: KbOverview): Record<string, unknown> {
  const { entry } = overview;
  return {
    name: entry.name,
    path: entry.root,
    health: overview.health,
    problem: overview.problem,
    documents: overview.documents,
    chunks: overview.chunks,
    model: overview.model,
    last_indexed_at: overview.lastIndexedAt,
    size_bytes: overview.sizeBytes,
    db_path: overview.dbPath,
    backend: overview.backend,
    parsers: overview.parsers,
    entry: {
      config: entry.configFile,
      model: entry.model,
      parsers: entry.parsers,
      db_path: entry.dbPath,
      line: entry.line,
    },
  };
}
