// A long-lived read side of one index: the connection, the model check, and the vector snapshot cache.
import path from 'node:path';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { formatOfPath } from '../../document/document-formats.js';
import type { JudgedServe } from '../../rank/counted-judgments.js';
import type { LearnedSignals } from '../../rank/learned-signals.js';
import { type BrowseReader, createBrowseReader } from '../../store/browse-queries.js';
import { createSearchReader, type SearchReader } from '../../store/chunk-search.js';
import { type CorpusChunkRow, type CorpusDigest, readCorpusDigest } from '../../store/corpus-digest.js';
import {
  type CorpusQuery,
  type PreparedCorpusRanking,
  prepareSnapshotRanking,
} from '../../store/corpus-ranking.js';
import { readFeedbackServes } from '../../store/feedback-store.js';
import { readMaxChunkId, readVectorChanges, type VectorMark } from '../../store/vector-changes.js';
import { VectorIndex } from '../../store/vector-index.js';
import { readWordChanges } from '../../store/word-changes.js';
import { WordIndex, type WordLoad, type WordRankOptions } from '../../store/word-index.js';
import { WordTokenizer } from '../../store/word-tokenizer.js';
import type { Bm25Weights, ChunkRecord, DocumentFacts, Embedder, Reranker } from '../../types.js';
import {
  adoptIndexModel,
  assertSameIdentity,
  embedderInsteadOf,
  identityOf,
  loadFailureOf,
  rerankerInsteadOf,
} from '../embedding/index.js';
import { IndexDatabase } from '../indexing/index.js';
import { learnedSignalsOf } from './index-learned-signals.js';
import { judgmentWindowOf } from './resolve-search-params.js';
import type { SearchResponse } from './search-types.js';
import { runSearch, type SearchOptions } from './searcher.js';
import { SnapshotBudget, type SnapshotMemory } from './snapshot-budget.js';

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
}

/** What the browse use cases (get_document, list_topics, the connection graph) read, on the session's connection. */
export interface SessionView {
  reader: SearchReader;
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
}

/**
 * The vector snapshot of one data_version, with where it stands (`mark`: its highest chunk id and the chunks then
 * waiting for a vector), so the next version's snapshot is this one with the changes since applied.
 */
interface VectorSnapshot {
  version: number;
  text: string;
  mark: VectorMark;
  index: VectorIndex | null;
}

/** The index's text generation (`g…`), or its data_version (`v…`) for an index without the counter. */
function textKeyOf(database: IndexDatabase): string {
  const generation = database.textGeneration();
  return generation === null ? `v${database.db.pragma('data_version', { simple: true })}` : `g${generation}`;
}

/** Yield once so the model's load message goes out first, then load the snapshot of the current data_version. */
async function preloadVectors(
  database: IndexDatabase,
  dimension: number,
  text: () => string,
  budget: SnapshotBudget,
) {
  await new Promise((resolve) => setImmediate(resolve));
  return readVectorSnapshot(database, dimension, text, null, budget);
}

/**
 * The snapshot of the current data_version: `previous` with the changes since applied when there is one (see
 * vector-changes.ts), else loaded whole — with its codes only if they fit the budget; a refreshed snapshot whose
 * codes grew past it, or were left out and fit now, is loaded whole again. The queue and the vectors are read in
 * one read transaction, so a commit in between cannot be missed or counted twice.
 */
function readVectorSnapshot(
  database: IndexDatabase,
  dimension: number,
  text: () => string,
  previous: VectorSnapshot | null,
  budget: SnapshotBudget,
): VectorSnapshot {
  const db = database.db;
  return db.transaction((): VectorSnapshot => {
    const version = db.pragma('data_version', { simple: true }) as number;
    const key = text();
    const queuedNow = database.embeddingQueue.readIds();
    const mark = { maxChunkId: readMaxChunkId(db), queued: Int32Array.from(queuedNow) };
    // Without the text generation counter (an index from before it) a text change is not told apart: load.
    const base = previous?.index && key.startsWith('g') ? previous.index : null;
    const load = () => VectorIndex.load(db, dimension, { maxCodeBytes: budget.vectorRoom() });
    const refreshed = base
      ? base.withChanges(
          readVectorChanges(db, base, {
            mark: previous!.mark,
            queuedNow,
            textChanged: previous!.text !== key,
          }),
        )
      : null;
    const index = refreshed && !budget.vectorsMisfit(refreshed) ? refreshed : load();
    const kept = index.size > 0 ? index : null;
    budget.noteVectors(kept);
    return { version, text: key, mark, index: kept };
  })();
}

export class SearchSession {
  private readonly database: IndexDatabase;
  private readonly config: ResolvedConfig;
  private readonly embedder: Embedder | null;
  private readonly reranker: Reranker | null;
  private readonly reader: SearchReader;
  private browser: BrowseReader | null = null;
  private vectorCache: VectorSnapshot | null = null;
  private factsCache: { text: string; facts: DocumentFacts[] } | null = null;
  private wordCache: { text: string; index: WordIndex | null } | null = null;
  /** Searches run against the current text; the word snapshot is built from the second one on. */
  private searchesSeen = { text: '', count: 0 };
  /** Which text the index holds, read again only after another connection committed (see textKey). */
  private textCache: { version: number; text: string } | null = null;
  private judgmentCache: { version: number; serves: JudgedServe[] } | null = null;
  private learnedCache: { version: number; builtAtMs: number; signals: LearnedSignals } | null = null;
  private readonly now: () => Date;
  /** Query tokens as fts_words makes them; created with the first word snapshot. */
  private wordTokenizer: WordTokenizer | null = null;
  /** Open withReadSnapshot calls sharing the read transaction. */
  private snapshotUsers = 0;
  private readonly budget: SnapshotBudget;
  private readonly lineRange: SearchSessionDeps['lineRange'] | null;

  private constructor(
    database: IndexDatabase,
    config: ResolvedConfig,
    models: {
      embedder: Embedder | null;
      reranker: Reranker | null;
      now: () => Date;
      lineRange?: SearchSessionDeps['lineRange'];
    },
    budget: SnapshotBudget,
  ) {
    const { embedder, reranker } = models;
    this.lineRange = models.lineRange ?? null;
    this.budget = budget;
    this.now = models.now;
    this.database = database;
    this.config = config;
    this.embedder = embedder;
    this.reranker = reranker;
    const reader = createSearchReader(database.db);
    // Filters look at every document's facts; re-read them only after another connection committed.
    this.reader = {
      ...reader,
      readDocumentFacts: () => this.currentDocumentFacts(reader),
      rankWords: (terms, options) => this.rankWords(terms, options),
      prepareSnapshotRanking: (query, weights) => this.snapshotRanking(query, weights),
    };
  }

  /** Open the index, follow or check its model identity, and load the models once. */
  static async open(
    dbPath: string,
    requested: ResolvedConfig,
    deps: SearchSessionDeps,
  ): Promise<SearchSession> {
    const database = IndexDatabase.open(dbPath, { create: false, kbPath: requested.kbPath ?? undefined });
    try {
      database.db.pragma(`cache_size = -${SESSION_PAGE_CACHE_KIB}`);
      const stored = database.identity();
      const config = stored ? adoptIndexModel(requested, stored) : requested;
      const pendingEmbedder = deps.embedder(config);
      pendingEmbedder.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
      // The model loads on its own thread: read the vector snapshot meanwhile (a search needs it next).
      const text = () => textKeyOf(database);
      const budget = new SnapshotBudget(config.search.memoryBudgetMb, deps.onNotice);
      const preloaded =
        stored && stored.dimension > 0
          ? await preloadVectors(database, stored.dimension, text, budget)
          : null;
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
      const session = new SearchSession(database, config, models, budget);
      if (embedder && preloaded && embedder.dimension === stored?.dimension) session.vectorCache = preloaded;
      else budget.noteVectors(null); // the preloaded snapshot is dropped: it holds none of the budget
      return session;
    } catch (error) {
      database.close();
      throw error;
    }
  }

  search(request: unknown, options: SearchOptions = {}): Promise<SearchResponse> {
    return runSearch(
      {
        reader: this.reader,
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
    );
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
    const version = this.dataVersion();
    if (this.judgmentCache?.version !== version) {
      this.judgmentCache = { version, serves: readFeedbackServes(this.database.db) };
    }
    return this.judgmentCache.serves;
  }

  /** The signals of every recorded judgment, rebuilt when the tables changed or the clock moved an hour. */
  private currentLearned(): LearnedSignals {
    const version = this.dataVersion();
    const now = this.now();
    const cached = this.learnedCache;
    if (cached?.version === version && Math.abs(now.getTime() - cached.builtAtMs) < LEARNED_MAX_AGE_MS) {
      return cached.signals;
    }
    const signals = learnedSignalsOf(this.database.db, () => this.currentJudgments(), {
      now,
      window: judgmentWindowOf(this.config),
    });
    this.learnedCache = { version, builtAtMs: now.getTime(), signals };
    return signals;
  }

  /** Read access for the browse use cases; the browse statements are prepared on first use. */
  view(): SessionView {
    this.browser ??= createBrowseReader(this.database.db);
    return {
      reader: this.reader,
      browser: this.browser,
      config: this.config,
      vectors: () => this.currentVectors(),
      pendingEmbeddings: () => this.pendingEmbeddings(),
      learned: () => this.currentLearned(),
      lexicalOnly: this.embedder === null,
      embedder: this.embedder,
      reranker: this.reranker,
      linesOf: (record) => this.linesOf(record),
    };
  }

  /** Build the snapshots a search needs now, so the first searches do not pay for them (serve calls this). */
  preload(): void {
    this.currentVectors();
    this.currentWordIndex(true);
  }

  /**
   * Rank single-token terms in memory, or null to let the caller use FTS5: no snapshot (yet), an index from
   * before schema 3, or a term that is a phrase under the table's tokenizer.
   */
  private rankWords(
    terms: readonly string[],
    options: WordRankOptions & { weights: Bm25Weights },
  ): number[] | null {
    const index = this.wordIndexFor(options.weights);
    return index?.rankTerms(this.wordTokenizer!, terms, options) ?? null;
  }

  /** The word snapshot's share and ranking for a search over several indexes (corpus-ranking.ts), if it can. */
  private snapshotRanking(query: CorpusQuery, weights: Bm25Weights): PreparedCorpusRanking | null {
    const index = this.wordIndexFor(weights);
    return index && prepareSnapshotRanking(index, this.wordTokenizer!, query);
  }

  /** The word snapshot (and its tokenizer) when it ranks with `weights`; see currentWordIndex. */
  private wordIndexFor(weights: Bm25Weights): WordIndex | null {
    // Other weights (tune's sweep) rank through FTS5; they must not build a snapshot they cannot use.
    const f = this.config.search.fusion;
    if (
      weights.heading !== f.bm25HeadingWeight ||
      weights.context !== f.bm25ContextWeight ||
      weights.content !== f.bm25ContentWeight
    )
      return null;
    const index = this.currentWordIndex(false);
    if (index) this.wordTokenizer ??= WordTokenizer.forWordTable(this.database.db);
    return index;
  }

  /**
   * The word snapshot of the current text: the previous one with the changed rows applied (word-changes.ts), or
   * loaded whole. Loading costs a few dozen FTS5 searches, so a one-shot search (the CLI) never loads it: only
   * the second search of a version, or `preload`, does.
   */
  private currentWordIndex(eager: boolean): WordIndex | null {
    const text = this.textKey();
    const cached = this.wordCache;
    if (cached?.text === text) {
      // The vector codes come first: codes that grew (vectors stored since) can push the postings out.
      if (!cached.index || !this.budget.wordsOver(cached.index.memoryBytes)) return cached.index;
      this.budget.noteWords({ index: null, neededBytes: cached.index.memoryBytes }, () => this.countChunks());
      this.wordCache = { text, index: null };
      return null;
    }
    const db = this.database.db;
    // Without the text generation counter (an index from before it) a text change is not told apart: load.
    const base = this.wordCache?.index && text.startsWith('g') ? this.wordCache.index : null;
    if (this.searchesSeen.text !== text) this.searchesSeen = { text, count: 0 };
    // Applying the changes to a snapshot costs little, so the first search after a commit does it.
    if (!eager && !base && ++this.searchesSeen.count < 2) return null;
    const f = this.config.search.fusion;
    const weights = {
      heading: f.bm25HeadingWeight,
      context: f.bm25ContextWeight,
      content: f.bm25ContentWeight,
    };
    const index = db.transaction(() => {
      const changes = base ? readWordChanges(db, base) : null;
      const refreshed = changes && base?.withChanges(db, changes);
      const chunks = () => this.countChunks();
      if (refreshed && !this.budget.wordsOver(refreshed.memoryBytes)) {
        this.budget.noteWords({ index: refreshed, neededBytes: refreshed.memoryBytes }, chunks);
        return refreshed;
      }
      // Refused for the budget as the index is: not tried again (a counting pass) until that could change.
      if (!this.budget.mayLoadWords(chunks)) return null;
      const load: WordLoad = WordIndex.loadWithin(db, weights, this.budget.wordRoom());
      this.budget.noteWords(load, chunks);
      return load.index;
    })();
    this.wordCache = { text, index };
    return index;
  }

  private countChunks(): number {
    return this.database.db.prepare('SELECT count(*) FROM chunks').pluck().get() as number;
  }

  /** What the snapshots hold now under `[search] memory_budget_mb`. */
  memory(): SnapshotMemory {
    return this.budget.memory();
  }

  private currentDocumentFacts(reader: SearchReader): DocumentFacts[] {
    const text = this.textKey();
    if (this.factsCache?.text !== text) this.factsCache = { text, facts: reader.readDocumentFacts() };
    return this.factsCache.facts;
  }

  /**
   * Which documents and chunks the index holds: their text generation (bumped by every write of a document, a
   * removal or a word-count backfill), so commits that only store vectors (a first index embedding behind its
   * text) or judgments keep the word snapshot and the facts. An index without the counter falls back to
   * data_version: any commit.
   */
  private textKey(): string {
    const version = this.dataVersion();
    if (this.textCache?.version !== version) this.textCache = { version, text: textKeyOf(this.database) };
    return this.textCache.text;
  }

  private dataVersion(): number {
    return this.database.db.pragma('data_version', { simple: true }) as number;
  }

  /** Chunks waiting in the embedding queue: the queue the current vector snapshot was read with. */
  private pendingEmbeddings(): number {
    if (!this.embedder) return 0;
    this.currentVectors();
    return this.vectorCache?.mark.queued.length ?? this.database.embeddingQueue.size();
  }

  /** Refresh the vector snapshot only when another connection committed since it was taken. */
  private currentVectors(): VectorIndex | null {
    // No dimension: a model that never loaded for this index, which then holds no vectors.
    if (!this.embedder || this.embedder.dimension === 0) return null;
    const cached = this.vectorCache;
    if (cached?.version === this.dataVersion()) return cached.index;
    this.vectorCache = readVectorSnapshot(
      this.database,
      this.embedder.dimension,
      () => this.textKey(),
      cached,
      this.budget,
    );
    return this.vectorCache.index;
  }

  /**
   * Run `work` inside one deferred read transaction, so every search and the corpus pass read the same WAL
   * snapshot even while an indexer commits; it only reads, so it ends with a rollback.
   */
  async withReadSnapshot<T>(work: (snapshot: ReadSnapshot) => Promise<T>): Promise<T> {
    const db = this.database.db;
    // Concurrent snapshots on one connection (two evals on one facade) share the transaction; the last to
    // finish ends it.
    if (this.snapshotUsers++ === 0 && !db.inTransaction) db.exec('BEGIN DEFERRED');
    try {
      return await work({
        model: this.embedder?.id ?? 'none',
        contextMode: this.database.identity()?.contextMode ?? 'off',
        search: (request, options) => this.search(request, options),
        readCorpus: (visit) => readCorpusDigest(db, visit),
        judgments: () => this.currentJudgments(),
        reader: this.reader,
        embedder: this.embedder,
        vectors: () => this.currentVectors(),
      });
    } finally {
      if (--this.snapshotUsers === 0 && db.inTransaction) db.exec('ROLLBACK');
    }
  }

  /**
   * Stop using this session but keep its connection open (see KnowledgeBase.currentSession): the snapshots are
   * dropped so only the connection stays.
   */
  retire(): void {
    this.vectorCache = null;
    this.wordCache = null;
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
    this.wordTokenizer?.close();
    this.database.close();
  }
}
