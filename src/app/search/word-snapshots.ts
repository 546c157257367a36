// The session's word snapshot: the word-level postings in memory (store/word-index.ts), kept per text of the
// index, refreshed from the changed rows, and held within `[search] memory_budget_mb` (snapshot-budget.ts).
import type { ResolvedConfig } from '../../config/resolve-config.js';
import {
  type CorpusQuery,
  type PreparedCorpusRanking,
  prepareSnapshotRanking,
} from '../../store/corpus-ranking.js';
import type { ReadConnection } from '../../store/read-connection.js';
import { readWordChanges } from '../../store/word-changes.js';
import { WordIndex, type WordLoad, type WordRankOptions } from '../../store/word-index.js';
import { WordTokenizer } from '../../store/word-tokenizer.js';
import type { Bm25Weights } from '../../types.js';
import type { WordRanking } from './search-cache.js';
import type { SnapshotBudget } from './snapshot-budget.js';

export class WordSnapshots implements WordRanking {
  private cache: { text: string; index: WordIndex | null } | null = null;
  /** Searches run against the current text; the word snapshot is built from the second one on. */
  private searchesSeen = { text: '', count: 0 };
  /** Query tokens as fts_words makes them; created with the first word snapshot. */
  private tokenizer: WordTokenizer | null = null;

  constructor(
    private readonly connection: ReadConnection,
    /** The text the index holds now (the session's, read again only after a commit). */
    private readonly textKey: () => string,
    private readonly weights: Bm25Weights,
    private readonly budget: SnapshotBudget,
  ) {}

  /** The session's fusion weights, the ones its word snapshot ranks with. */
  static weightsOf(config: ResolvedConfig): Bm25Weights {
    const f = config.search.fusion;
    return { heading: f.bm25HeadingWeight, context: f.bm25ContextWeight, content: f.bm25ContentWeight };
  }

  /**
   * Rank single-token terms in memory, or null to let the caller use FTS5: no snapshot (yet), an index from
   * before schema 3, or a term that is a phrase under the table's tokenizer.
   */
  rankTerms(terms: readonly string[], options: WordRankOptions & { weights: Bm25Weights }): number[] | null {
    const index = this.rankingWith(options.weights);
    return index?.rankTerms(this.tokenizer!, terms, options) ?? null;
  }

  /** The word snapshot's share and ranking for a search over several indexes (corpus-ranking.ts), if it can. */
  prepareCorpusRanking(query: CorpusQuery, weights: Bm25Weights): PreparedCorpusRanking | null {
    const index = this.rankingWith(weights);
    return index && prepareSnapshotRanking(index, this.tokenizer!, query);
  }

  heldCorpusRanking(query: CorpusQuery, weights: Bm25Weights): PreparedCorpusRanking | null {
    if (!this.ranksWith(weights)) return null;
    const cached = this.cache;
    if (!cached?.index || cached.text !== this.textKey()) return null;
    this.tokenizer ??= WordTokenizer.forWordTable(this.connection.db);
    return prepareSnapshotRanking(cached.index, this.tokenizer, query);
  }

  /** The word snapshot (and its tokenizer) when it ranks with `weights`; see current. */
  private rankingWith(weights: Bm25Weights): WordIndex | null {
    // Other weights (tune's sweep) rank through FTS5; they must not build a snapshot they cannot use.
    if (!this.ranksWith(weights)) return null;
    const index = this.current(false);
    if (index) this.tokenizer ??= WordTokenizer.forWordTable(this.connection.db);
    return index;
  }

  /** Whether `weights` are the session's own, the ones its word snapshot ranks with. */
  private ranksWith(weights: Bm25Weights): boolean {
    const own = this.weights;
    return (
      weights.heading === own.heading && weights.context === own.context && weights.content === own.content
    );
  }

  /**
   * The word snapshot of the current text: the previous one with the changed rows applied (word-changes.ts), or
   * loaded whole. Loading costs a few dozen FTS5 searches, so a one-shot search (the CLI) never loads it: only
   * the second search of a version, or an `eager` preload, does.
   */
  current(eager: boolean): WordIndex | null {
    const text = this.textKey();
    const cached = this.cache;
    const chunks = () => this.connection.countChunks();
    if (cached?.text === text) {
      // The vector codes come first: codes that grew (vectors stored since) can push the postings out.
      if (!cached.index || !this.budget.wordsOver(cached.index.memoryBytes)) return cached.index;
      this.budget.noteWords({ index: null, neededBytes: cached.index.memoryBytes }, chunks);
      this.cache = { text, index: null };
      return null;
    }
    // Without the text generation counter (an index from before it) a text change is not told apart: load.
    const base = cached?.index && text.startsWith('g') ? cached.index : null;
    if (this.searchesSeen.text !== text) this.searchesSeen = { text, count: 0 };
    // Applying the changes to a snapshot costs little, so the first search after a commit does it.
    if (!eager && !base && ++this.searchesSeen.count < 2) return null;
    const index = this.connection.atomically(() => this.read(base, chunks));
    this.cache = { text, index };
    return index;
  }

  /** `base` with the changes since applied, or the snapshot loaded whole within the budget (or none). */
  private read(base: WordIndex | null, chunks: () => number): WordIndex | null {
    const db = this.connection.db;
    const changes = base ? readWordChanges(db, base) : null;
    const refreshed = changes && base?.withChanges(db, changes);
    if (refreshed && !this.budget.wordsOver(refreshed.memoryBytes)) {
      this.budget.noteWords({ index: refreshed, neededBytes: refreshed.memoryBytes }, chunks);
      return refreshed;
    }
    // Refused for the budget as the index is: not tried again (a counting pass) until that could change.
    if (!this.budget.mayLoadWords(chunks)) return null;
    const load: WordLoad = WordIndex.loadWithin(db, this.weights, this.budget.wordRoom());
    this.budget.noteWords(load, chunks);
    return load.index;
  }

  /** Drop the snapshot (the session is retired). */
  drop(): void {
    this.cache = null;
  }

  close(): void {
    this.tokenizer?.close();
  }
}
