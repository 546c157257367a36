// The application facade and composition root: CLI, MCP and eval call this object and nothing below it.
import fs from 'node:fs';
import path from 'node:path';
import type { ResolvedConfig } from '../config/resolve-config.js';
import { GrooveError } from '../errors.js';
import type { Embedder } from '../types.js';
import { createEmbedderFor } from './embedder-factory.js';
import { IndexDatabase } from './index-database.js';
import type { IndexEventSink, IndexSummary } from './index-events.js';
import { acquireIndexLock } from './index-lock.js';
import { runIndex } from './indexer.js';
import { buildIndexerPorts } from './indexer-ports.js';
import {
  adoptIndexModel,
  assertSameIdentity,
  type IndexIdentity,
  identityFromMeta,
  identityOf,
} from './model-identity.js';
import { SearchSession } from './search-session.js';
import type { SearchResponse } from './search-types.js';

/** Seams for the composition root; tests inject a deterministic embedder here. */
export interface KnowledgeBaseDeps {
  createEmbedder?: (config: ResolvedConfig) => Promise<Embedder | null>;
}

export interface IndexOptions {
  force?: boolean;
  onEvent?: IndexEventSink;
}

export interface StatusReport {
  kbPath: string;
  dbPath: string;
  dbSizeBytes: number;
  documents: number;
  chunks: number;
  vectors: number;
  model: string;
  provider: string;
  dimension: number;
  contextMode: string;
  lastIndexedAt: string | null;
  frontmatterErrors: number;
  schemaVersion: number;
}

/** Resolve kb and db paths or explain which flag is missing. */
export function requireKbPaths(config: ResolvedConfig): { kbPath: string; dbPath: string } {
  if (!config.kbPath) {
    throw new GrooveError('KB_PATH_MISSING', 'no knowledge base given', {
      hint: 'pass --kb-path DIR or set kb_path in groove.toml',
    });
  }
  const stat = fs.statSync(config.kbPath, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) {
    throw new GrooveError('KB_NOT_FOUND', `knowledge base "${config.kbPath}" is not a directory`, {
      hint: 'check --kb-path (it must be an existing folder of notes)',
    });
  }
  return {
    kbPath: config.kbPath,
    dbPath: config.dbPath ?? path.join(path.dirname(config.kbPath), '.groove.db'),
  };
}

export class KnowledgeBase {
  readonly config: ResolvedConfig;
  readonly kbPath: string;
  readonly dbPath: string;
  private embedderPromise: Promise<Embedder | null> | null = null;
  private sessionPromise: Promise<SearchSession> | null = null;

  private readonly createEmbedder: (config: ResolvedConfig) => Promise<Embedder | null>;

  constructor(config: ResolvedConfig, deps: KnowledgeBaseDeps = {}) {
    this.config = config;
    this.createEmbedder = deps.createEmbedder ?? createEmbedderFor;
    const paths = requireKbPaths(config);
    this.kbPath = paths.kbPath;
    this.dbPath = paths.dbPath;
  }

  /** Index the KB incrementally; `force` rebuilds into a new file and swaps it in only when complete. */
  async index(options: IndexOptions = {}): Promise<IndexSummary> {
    const lock = acquireIndexLock(this.dbPath);
    try {
      return options.force ? await this.rebuild(options) : await this.update(options);
    } finally {
      lock.release();
    }
  }

  private async update(options: IndexOptions): Promise<IndexSummary> {
    const database = IndexDatabase.open(this.dbPath, { create: true });
    try {
      const stored = database.identity();
      if (stored && database.documentCount() > 0) adoptIndexModel(this.config, stored);
      const embedder = await this.embedder();
      const wanted = identityOf(embedder, this.config);
      if (stored && database.documentCount() > 0) assertSameIdentity(stored, wanted, this.dbPath);
      return await this.runOn(database, embedder, wanted, options);
    } finally {
      database.close();
    }
  }

  private async rebuild(options: IndexOptions): Promise<IndexSummary> {
    const embedder = await this.embedder();
    const wanted = identityOf(embedder, this.config);
    const tempPath = `${this.dbPath}.rebuild`;
    IndexDatabase.remove(tempPath);
    const database = IndexDatabase.open(tempPath, { create: true });
    let summary: IndexSummary;
    try {
      summary = await this.runOn(database, embedder, wanted, options);
    } finally {
      database.close();
    }
    IndexDatabase.replace(tempPath, this.dbPath);
    return summary;
  }

  private async runOn(
    database: IndexDatabase,
    embedder: Embedder | null,
    identity: IndexIdentity,
    options: IndexOptions,
  ): Promise<IndexSummary> {
    const policy = database.chunkPolicyFor(this.config);
    const reparseAll = database.storedChunkPolicy() !== policy && database.documentCount() > 0;
    database.writeIdentity(identity);
    const summary = await runIndex({
      store: database.documents,
      ports: buildIndexerPorts(this.kbPath, this.config),
      embedder,
      reparseAll,
      contextual: this.config.contextual.enabled,
      maxInputChars: this.config.embedding.maxInputChars,
      batchSize: this.config.embedding.batchSize,
      onEvent: options.onEvent ?? (() => {}),
      countRows: () => database.counts(),
    });
    database.finishRun(policy);
    return summary;
  }

  /** Counts and identity of the index; never creates one. */
  status(): StatusReport {
    const database = IndexDatabase.open(this.dbPath, { create: false });
    try {
      const meta = database.meta();
      const identity = identityFromMeta(meta);
      const counts = database.counts();
      return {
        kbPath: this.kbPath,
        dbPath: this.dbPath,
        dbSizeBytes: database.sizeBytes(),
        documents: counts.documents,
        chunks: counts.chunks,
        vectors: counts.vectors,
        model: identity?.model ?? 'none',
        provider: identity?.provider ?? 'none',
        dimension: identity?.dimension ?? 0,
        contextMode: identity?.contextMode ?? 'off',
        lastIndexedAt: meta.last_indexed_at ?? null,
        frontmatterErrors: counts.frontmatterErrors,
        schemaVersion: Number(meta.schema_version ?? 0),
      };
    } finally {
      database.close();
    }
  }

  /** Run the search pipeline against the index (opened and model-checked once per facade). */
  async search(request: unknown): Promise<SearchResponse> {
    this.sessionPromise ??= SearchSession.open(this.dbPath, this.config, {
      embedder: () => this.embedder(),
      reranker: async () => null,
    });
    const session = await this.sessionPromise.catch((error: unknown) => {
      this.sessionPromise = null;
      throw error;
    });
    return session.search(request);
  }

  /** The embedder for this configuration, loaded once per facade. */
  embedder(): Promise<Embedder | null> {
    this.embedderPromise ??= this.createEmbedder(this.config);
    return this.embedderPromise;
  }

  async close(): Promise<void> {
    const session = await this.sessionPromise?.catch(() => null);
    session?.close();
    const embedder = await this.embedderPromise?.catch(() => null);
    await embedder?.close();
  }
}

export function openKnowledgeBase(config: ResolvedConfig, deps?: KnowledgeBaseDeps): KnowledgeBase {
  return new KnowledgeBase(config, deps);
}
