// A long-lived read side of one index: the connection, the model check, and what it keeps in memory between
// searches (the vector and word snapshots, the document facts, the judgments and what they teach).
import path from 'node:path';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { formatOfPath } from '../../document/document-formats.js';
import { createTextLineFinder, type TextLineFinder } from '../../fs/content-line.js';
import type { JudgedServe } from '../../rank/counted-judgments.js';
import type { LearnedSignals } from '../../rank/learned-signals.js';
import { type BrowseReader, createBrowseReader } from '../../store/browse-queries.js';
import { createSearchReader, type SearchReader } from '../../store/chunk-search.js';
import { type CorpusChunkRow, type CorpusDigest, readCorpusDigest } from '../../store/corpus-digest.js';
import { readFeedbackServes } from '../../store/feedback-store.js';
import { ReadConnection } from '../../store/read-connection.js';
import type { VectorIndex } from '../../store/vector-index.js';
import type { ChunkRecord, DocumentFacts, Embedder, Reranker } from '../../types.js';
import {
  adoptIndexModel,
  assertSameIdentity,
  embedderInsteadOf,
  identityOf,
  loadFailureOf,
  rerankerInsteadOf,
} from '../embedding/index.js';
import { IndexDatabase } from '../indexing/index.js';
import { runBudgetedSearch } from './budgeted-search.js';
import { learnedSignalsOf } from './index-learned-signals.js';
import { judgmentWindowOf } from './resolve-search-params.js';
import type { SearchCache, WordRanking } from './search-cache.js';
import type { SearchHit, SearchResponse } from './search-types.js';
import type { SearchOptions } from './searcher.js';
import { SnapshotBudget, type SnapshotMemory } from './snapshot-budget.js';
import { preloadVectors, type VectorSnapshotRead, VectorSnapshots } from './vector-snapshots.js';
import { WordSnapshots } from './word-snapshots.js';

export interface SearchSessionDeps {
  /** The embedder for the config in effect (the requested one, following the index's model). */
  embedder: (config: ResolvedConfig) => Promise<Embedder | null>;
  reranker: (config: ResolvedConfig) => Promise<Reranker | null>;
  /** The clock judgments are aged by (the facade's). */
  now?: () => Date;
  /** Where a change of what the snapshots hold under `[search] memory_budget_mb` is reported (serve: stderr). */
  onNotice?: (line: string) => void;
  /** The lines a byte range of a KB file spans (hits' line_start/line_end); without it hits carry none. */
  lineRange?: (file: string, byteStart: number, byteEnd: number, indexed: IndexedFile) => LineSpan | null;
}

/** A KB file as it was indexed, and the lines a chunk of it spans. */
export interface IndexedFile {
  sizeBytes: number;
  mtimeMs: number;
}
export interface LineSpan {
  start: number;
  end: number;
}

/**
 * SQLite's page cache of the session's connection, in KiB (the library default is 16 MiB). Its reads per search
 * are FTS5 doclists and a few hundred vector rows, which the operating system's file cache serves as well.
 */
const SESSION_PAGE_CACHE_KIB = 4096;

/** Learned signals are rebuilt after another connection commits, or once they are this old (they age). */
const LEARNED_MAX_AGE_MS = 3_600_000;

/**
 * One consistent read of the whole index (eval, tune): searches, the corpus pass and the legs' own reads see the
 * same snapshot.
 */
export interface ReadSnapshot {
  /** The embedding model id, or `none` for a lexical-only index. */
  model: string;
  /** The context mode the index records. */
  contextMode: 'static' | 'off';
  search(request: unknown, options?: SearchOptions): Promise<SearchResponse>;
  readCorpus(visit: (row: CorpusChunkRow) => void): CorpusDigest;
  /** Every recorded serve with its judgments, in recording order, as of this snapshot. */
  judgments(): readonly JudgedServe[];
  /** The rows the legs read (tune runs them one by one; eval's leg probe samples a chunk). */
  reader: SearchReader;
  /** The embedder the vector leg queries with; null for a lexical-only index. */
  embedder: Embedder | null;
  /** The current vector snapshot, or null for a lexical-only index (or one without vectors yet). */
  vectors(): VectorIndex | null;
  /** The session's in-memory word ranking, which the lexical leg tries first (as a search does). */
  words: WordRanking | null;
}

/** What the browse use cases (get_document, list_topics, the connection graph) read, on the session's connection. */
export interface SessionView {
  /** The store's statements on the session's connection. */
  reader: SearchReader;
  /** What the session keeps in memory for a search: the document facts and the word snapshot's ranking. */
  cache: SearchCache;
  browser: BrowseReader;
  config: ResolvedConfig;
  /** The current vector snapshot, or null for a lexical-only index (or one without vectors yet). */
  vectors(): VectorIndex | null;
  /** Chunks still waiting for their vector. */
  pendingEmbeddings(): number;
  /** What the recorded judgments teach (the boost, the co-helpful edges), as the search uses it. */
  learned(): LearnedSignals;
  lexicalOnly: boolean;
  /** The models this session searches with (a stand-in failing every call when one could not load). */
  embedder: Embedder | null;
  reranker: Reranker | null;
  /** The lines of its file a chunk of this index spans, where they can be known. */
  linesOf(record: ChunkRecord): LineSpan | null;
  /** The line of its file where a hit's text begins (a budget's passages count their lines from it), or null. */
  textFirstLine(hit: SearchHit, text: string, find: TextLineFinder): number | null;
  /** A finder that reads each file once: one per search's passages. */
  newTextLineFinder(): TextLineFinder;
}

export class SearchSession {
  /** The configuration in effect: the requested one, following the model the index records. */
  readonly config: ResolvedConfig;
  private readonly embedder: Embedder | null;
  private readonly reranker: Reranker | null;
  private readonly reader: SearchReader;
  private readonly cache: SearchCache;
  private browser: BrowseReader | null = null;
  private readonly vectors: VectorSnapshots | null;
  private readonly words: WordSnapshots;
  private factsCache: { text: string; facts: DocumentFacts[] } | null = null;
  /** Which text the index holds, read again only after another connection committed (see textKey). */
  private textCache: { version: number; text: string } | null = null;
  private judgmentCache: { version: number; serves: JudgedServe[] } | null = null;
  private learnedCache: { version: number; builtAtMs: number; signals: LearnedSignals } | null = null;
  private readonly now: () => Date;
  private readonly budget: SnapshotBudget;
  private readonly lineRange: SearchSessionDeps['lineRange'] | null;

  private constructor(
    private readonly database: IndexDatabase,
    private readonly connection: ReadConnection,
    config: ResolvedConfig,
    models: {
      embedder: Embedder | null;
      reranker: Reranker | null;
      now: () => Date;
      lineRange?: SearchSessionDeps['lineRange'];
    },
    snapshots: { budget: SnapshotBudget; preloaded: VectorSnapshotRead | null },
  ) {
    const { embedder, reranker } = models;
    this.lineRange = models.lineRange ?? null;
    this.budget = snapshots.budget;
    this.now = models.now;
    this.config = config;
    this.embedder = embedder;
    this.reranker = reranker;
    this.reader = createSearchReader(connection.db);
    const textKey = () => this.textKey();
    const source = { connection, queue: database.embeddingQueue, textKey, budget: this.budget };
    this.vectors = embedder ? new VectorSnapshots(source, embedder.dimension, snapshots.preloaded) : null;
    this.words = new WordSnapshots(connection, textKey, WordSnapshots.weightsOf(config), this.budget);
    // Filters look at every document's facts; re-read them only after the text changed.
    this.cache = { documentFacts: () => this.currentDocumentFacts(), words: this.words };
  }

  /** Open the index, follow or check its model identity, and load the models once. */
  static async open(
    dbPath: string,
    requested: ResolvedConfig,
    deps: SearchSessionDeps,
  ): Promise<SearchSession> {
    const database = IndexDatabase.open(dbPath, { create: false, kbPath: requested.kbPath ?? undefined });
    try {
      const connection = new ReadConnection(database.db, { pageCacheKib: SESSION_PAGE_CACHE_KIB });
      const stored = database.identity();
      const config = stored ? adoptIndexModel(requested, stored) : requested;
      const pendingEmbedder = deps.embedder(config);
      pendingEmbedder.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
      // The model loads on its own thread: read the vector snapshot meanwhile (a search needs it next).
      const budget = new SnapshotBudget(config.search.memoryBudgetMb, deps.onNotice);
      const source = {
        connection,
        queue: database.embeddingQueue,
        textKey: () => connection.textKey(),
        budget,
      };
      const preloaded =
        stored && stored.dimension > 0 ? await preloadVectors(source, stored.dimension) : null;
      // A model that cannot load is a failed leg of this session, not a failed command (see unloaded-models.ts).
      const embedder = await pendingEmbedder.catch((error: unknown) =>
        embedderInsteadOf(error, config, stored),
      );
      if (stored) assertSameIdentity(stored, identityOf(embedder, config), dbPath);
      const reranker = await deps
        .reranker(config)
        .catch((error: unknown) => rerankerInsteadOf(error, config));
      const now = deps.now ?? (() => new Date());
      const models = { embedder, reranker, now, lineRange: deps.lineRange };
      const kept = embedder && preloaded && embedder.dimension === stored?.dimension ? preloaded : null;
      if (!kept) budget.noteVectors(null); // the preloaded snapshot is dropped: it holds none of the budget
      return new SearchSession(database, connection, config, models, { budget, preloaded: kept });
    } catch (error) {
      database.close();
      throw error;
    }
  }

  search(request: unknown, options: SearchOptions = {}): Promise<SearchResponse> {
    const find = createTextLineFinder();
    return runBudgetedSearch(
      {
        reader: this.reader,
        cache: this.cache,
        config: this.config,
        embedder: this.embedder,
        reranker: this.reranker,
        vectors: () => this.currentVectors(),
        pendingEmbeddings: () => this.pendingEmbeddings(),
        embedderLoadError: loadFailureOf(this.embedder)?.message ?? null,
        linesOf: (record) => this.linesOf(record),
        learned: () => this.currentLearned(),
      },
      request,
      options,
      (hit, text) => this.textFirstLine(hit, text, find),
    );
  }

  /** The line of a hit's file where `text` (its text, or a passage of it) begins from the hit's first line. */
  private textFirstLine(hit: SearchHit, text: string, find: TextLineFinder): number | null {
    if (!this.config.kbPath || hit.lineStart === null) return null;
    return find(path.join(this.config.kbPath, ...hit.path.split('/')), text, hit.lineStart);
  }

  /**
   * The lines of its file a chunk spans: Markdown and plain text only, whose byte ranges are the file's own (an
   * extracted format's are offsets in its extracted text), and only while the file is as it was indexed.
   */
  private linesOf(record: ChunkRecord): LineSpan | null {
    const format = formatOfPath(record.path);
    if (!this.lineRange || !this.config.kbPath || (format !== 'md' && format !== 'txt')) return null;
    const file = path.join(this.config.kbPath, ...record.path.split('/'));
    return this.lineRange(file, record.byteStart, record.byteEnd, record);
  }

  /** The feedback tables as of the current data_version: read again only after another connection committed. */
  private currentJudgments(): JudgedServe[] {
    const version = this.connection.dataVersion();
    if (this.judgmentCache?.version !== version) {
      this.judgmentCache = { version, serves: readFeedbackServes(this.connection.db) };
    }
    return this.judgmentCache.serves;
  }

  /** The signals of every recorded judgment, rebuilt when the tables changed or the clock moved an hour. */
  private currentLearned(): LearnedSignals {
    const version = this.connection.dataVersion();
    const now = this.now();
    const cached = this.learnedCache;
    if (cached?.version === version && Math.abs(now.getTime() - cached.builtAtMs) < LEARNED_MAX_AGE_MS) {
      return cached.signals;
    }
    const signals = learnedSignalsOf(this.connection.db, () => this.currentJudgments(), {
      now,
      window: judgmentWindowOf(this.config),
    });
    this.learnedCache = { version, builtAtMs: now.getTime(), signals };
    return signals;
  }

  /** Read access for the browse use cases; the browse statements are prepared on first use. */
  view(): SessionView {
    this.browser ??= createBrowseReader(this.connection.db);
    return {
      reader: this.reader,
      cache: this.cache,
      browser: this.browser,
      config: this.config,
      vectors: () => this.currentVectors(),
      pendingEmbeddings: () => this.pendingEmbeddings(),
      learned: () => this.currentLearned(),
      lexicalOnly: this.embedder === null,
      embedder: this.embedder,
      reranker: this.reranker,
      linesOf: (record) => this.linesOf(record),
      textFirstLine: (hit, text, find) => this.textFirstLine(hit, text, find),
      newTextLineFinder: createTextLineFinder,
    };
  }

  /** Build the snapshots a search needs now, so the first searches do not pay for them (serve calls this). */
  preload(): void {
    this.currentVectors();
    this.words.current(true);
  }

  /** What the snapshots hold now under `[search] memory_budget_mb`. */
  memory(): SnapshotMemory {
    return this.budget.memory();
  }

  private currentDocumentFacts(): DocumentFacts[] {
    const text = this.textKey();
    if (this.factsCache?.text !== text) this.factsCache = { text, facts: this.reader.readDocumentFacts() };
    return this.factsCache.facts;
  }

  /**
   * Which documents and chunks the index holds (ReadConnection.textKey), so commits that only store vectors (a
   * first index embedding behind its text) or judgments keep the word snapshot and the facts.
   */
  private textKey(): string {
    const version = this.connection.dataVersion();
    if (this.textCache?.version !== version) this.textCache = { version, text: this.connection.textKey() };
    return this.textCache.text;
  }

  /** Chunks waiting in the embedding queue: the queue the current vector snapshot was read with. */
  private pendingEmbeddings(): number {
    return this.vectors?.pending() ?? 0;
  }

  /** Refresh the vector snapshot only when another connection committed since it was taken. */
  private currentVectors(): VectorIndex | null {
    return this.vectors?.current() ?? null;
  }

  /** Run `work` inside one read transaction: every search and the corpus pass read the same snapshot. */
  withReadSnapshot<T>(work: (snapshot: ReadSnapshot) => Promise<T>): Promise<T> {
    return this.connection.withReadTransaction(() =>
      work({
        model: this.embedder?.id ?? 'none',
        contextMode: this.database.identity()?.contextMode ?? 'off',
        search: (request, options) => this.search(request, options),
        readCorpus: (visit) => readCorpusDigest(this.connection.db, visit),
        judgments: () => this.currentJudgments(),
        reader: this.reader,
        embedder: this.embedder,
        vectors: () => this.currentVectors(),
        words: this.cache.words,
      }),
    );
  }

  /**
   * Stop using this session but keep its connection open (see KnowledgeBase.currentSession): the snapshots are
   * dropped so only the connection stays.
   */
  retire(): void {
    this.vectors?.drop();
    this.words.drop();
    this.factsCache = null;
    this.textCache = null;
    this.judgmentCache = null;
    this.learnedCache = null;
  }

  /** Whether the index file was replaced on disk since this session opened it. */
  replacedOnDisk(): boolean {
    return this.database.replacedOnDisk();
  }

  close(): void {
    this.words.close();
    this.database.close();
  }
}
