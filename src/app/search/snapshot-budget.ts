// `[search] memory_budget_mb`: how many bytes a search session's in-memory snapshots may hold, spent on the vector
// codes first (nothing else makes the vector leg fast) and on the word postings with what is left (SQLite FTS5
// ranks word matches identically without them). A snapshot that would not fit is not built: the vector leg then
// scores every vector as it reads it from the index file, and the word leg ranks through FTS5. Each change of
// what is held is reported once through `notify` (serve writes it to stderr).
import type { VectorIndex } from '../../store/vector-index.js';
import type { WordLoad } from '../../store/word-index.js';

const MIB = 1024 * 1024;

/** What the snapshots hold now, against the budget. */
export interface SnapshotMemory {
  /** The budget in bytes, or null when none is set. */
  budgetBytes: number | null;
  /**
   * `codes`: int8 codes in memory; `scan`: codes left out, vectors read from the file on each search; `float32`:
   * a runtime without WebAssembly SIMD holding the vectors themselves; `none`: no snapshot.
   */
  vectors: { state: 'codes' | 'scan' | 'float32' | 'none'; bytes: number };
  /** `memory`: postings in memory; `fts5`: left out for the budget; `none`: not built (yet, or no counts). */
  words: { state: 'memory' | 'fts5' | 'none'; bytes: number; neededBytes: number | null };
}

/** A word load refused for the budget: tried again only with more room, or once the index has fewer chunks. */
interface WordRefusal {
  room: number;
  chunks: number;
}

export class SnapshotBudget {
  private readonly budgetBytes: number | null;
  private vectors: SnapshotMemory['vectors'] = { state: 'none', bytes: 0 };
  private words: SnapshotMemory['words'] = { state: 'none', bytes: 0, neededBytes: null };
  private refusal: WordRefusal | null = null;
  /** What was last reported of each snapshot (it fits, or it is left out), so a change is reported once. */
  private readonly reported = { vectors: '', words: '' };

  constructor(
    budgetMb: number | null,
    private readonly notify: (line: string) => void = () => {},
  ) {
    this.budgetBytes = budgetMb === null ? null : budgetMb * MIB;
  }

  /** The most the vector snapshot may hold (no limit without a budget). */
  vectorRoom(): number {
    return this.budgetBytes ?? Number.POSITIVE_INFINITY;
  }

  /** What the word snapshot may hold: the budget less what the vector snapshot holds. */
  wordRoom(): number {
    return this.budgetBytes === null
      ? Number.POSITIVE_INFINITY
      : Math.max(0, this.budgetBytes - this.vectors.bytes);
  }

  /**
   * Whether a refreshed vector snapshot must be loaded whole again: its codes grew past the budget, or were left
   * out and would fit now (the index shrank).
   */
  vectorsMisfit(index: VectorIndex): boolean {
    const room = this.vectorRoom();
    if (index.quantised) return index.memoryBytes > room;
    return index.codesLeftOut && index.codeBytesNeeded <= room;
  }

  /** Whether a refreshed word snapshot must be dropped for a whole load under the budget. */
  wordsOver(bytes: number): boolean {
    return bytes > this.wordRoom();
  }

  /** Whether a whole word load is worth trying with the index as it is (`chunks` counts it; not refused as is). */
  mayLoadWords(chunks: () => number): boolean {
    const refused = this.refusal;
    return refused === null || this.wordRoom() > refused.room || chunks() < refused.chunks;
  }

  noteVectors(index: VectorIndex | null): void {
    const state =
      index === null ? 'none' : index.quantised ? 'codes' : index.codesLeftOut ? 'scan' : 'float32';
    this.vectors = { state, bytes: index?.memoryBytes ?? 0 };
    if (state === 'scan')
      this.report(
        'vectors',
        'over',
        `the vector codes of ${index!.size} chunks do not fit; the vector leg scores every vector read from the index file (exact, slower)`,
      );
    else if (state === 'codes')
      this.report('vectors', 'fits', `vector codes held: ${mb(this.vectors.bytes)}`);
  }

  noteWords(load: WordLoad, chunks: () => number): void {
    if (load.index) {
      this.refusal = null;
      this.words = { state: 'memory', bytes: load.index.memoryBytes, neededBytes: load.neededBytes };
      this.report('words', 'fits', `word postings held: ${mb(this.words.bytes)}`);
      return;
    }
    if (load.neededBytes === null) {
      this.words = { state: 'none', bytes: 0, neededBytes: null };
      return;
    }
    const room = this.wordRoom();
    this.refusal = { room, chunks: chunks() };
    this.words = { state: 'fts5', bytes: 0, neededBytes: load.neededBytes };
    this.report(
      'words',
      'over',
      `the word postings need ${mb(load.neededBytes)} and ${mb(room)} is left; the word leg ranks through SQLite FTS5 (same results, slower)`,
    );
  }

  memory(): SnapshotMemory {
    return { budgetBytes: this.budgetBytes, vectors: { ...this.vectors }, words: { ...this.words } };
  }

  /**
   * Report when a snapshot starts or stops fitting, once; only with a budget set (without one nothing is left
   * out, and a server says nothing about it).
   */
  private report(what: 'vectors' | 'words', kind: 'fits' | 'over', detail: string): void {
    if (this.budgetBytes === null || this.reported[what] === kind) return;
    this.reported[what] = kind;
    this.notify(`memory budget ${mb(this.budgetBytes)}: ${detail}`);
  }
}

function mb(bytes: number): string {
  return `${(bytes / MIB).toFixed(bytes < 10 * MIB ? 1 : 0)} MB`;
}
