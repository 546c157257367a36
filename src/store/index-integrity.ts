// Read-only queries behind `groove doctor`. Each rule query returns how many rows break the rule and the first few
// of them, named so a person can find them: a document's path, a chunk's path and position, an FTS rowid.
// The FTS tables are contentless, so their rows are listed through each table's `<table>_docsize` shadow table,
// which holds one row per indexed rowid with its per-column token counts.
import { docsizeColumns } from './fts-postings.js';
import { type MetaKey, readMeta } from './index-meta.js';
import { createLinkReader } from './link-edges.js';
import type { SqliteDatabase } from './open-database.js';
import { decodeSkippedFiles, type SkippedFilesRecord } from './skipped-files.js';
import { decodeTermCounts } from './word-counts.js';

/** Rows breaking one rule: all of them counted, the first few named. */
export interface RuleBreaks {
  count: number;
  samples: string[];
}

export type FtsTableName = 'fts_words' | 'fts_chunks';

/** Problems `PRAGMA quick_check` is asked for at most. */
const QUICK_CHECK_LIMIT = 20;
/** The columns of both FTS tables, in declaration order: heading, context, content. */
const FTS_COLUMNS = 3;

/** A chunk in a sample: its document's path and position, or its id when it has no document (`d` is joined). */
function chunkLabel(idColumn: string): string {
  return `coalesce(d.path || ' (chunk ' || c.chunk_index || ')', 'chunk id ' || ${idColumn})`;
}

const CHUNKS_WITH_DOCUMENT = 'chunks c LEFT JOIN documents d ON d.id = c.document_id';

export class IntegrityReader {
  private readonly db: SqliteDatabase;
  /** How many rows each rule names. */
  private readonly sampleLimit: number;

  constructor(db: SqliteDatabase, sampleLimit: number) {
    this.db = db;
    this.sampleLimit = sampleLimit;
  }

  /**
   * Run `work` inside one read transaction, so every rule sees the same committed state. It ends in a rollback:
   * there is nothing to commit, and a commit after a read that hit damage fails with that damage again.
   */
  inSnapshot<T>(work: () => T): T {
    this.db.exec('BEGIN');
    try {
      return work();
    } finally {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
    }
  }

  /** Every table in the file, virtual tables and their shadow tables included. */
  tables(): Set<string> {
    const names = this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    return new Set(names as string[]);
  }

  meta(): Partial<Record<MetaKey, string>> {
    return readMeta(this.db);
  }

  /** What SQLite's own page-level check reports; empty when it says `ok`. */
  quickCheck(): string[] {
    const rows = this.db.pragma(`quick_check(${QUICK_CHECK_LIMIT})`, { simple: false }) as {
      quick_check: string;
    }[];
    // One row may hold several problems, one a line, under a `*** in database main ***` heading.
    const lines = rows.flatMap((row) => row.quick_check.split('\n'));
    return lines.filter((line) => line !== 'ok' && !/^\*\*\* in database \w+ \*\*\*$/.test(line));
  }

  /** Links naming a note that is not indexed (see link-edges.ts), the first few as `source → target`. */
  danglingLinks(noteExtensions: readonly string[]): RuleBreaks {
    const tally = createLinkReader(this.db).tallyLinks(noteExtensions, this.sampleLimit);
    return { count: tally.dangling, samples: tally.danglingSamples };
  }

  count(table: 'documents' | 'chunks' | 'chunk_vectors'): number {
    return this.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  }

  /** Chunks with no vector that are not waiting for one either (`queued`: the embedding_queue table exists). */
  chunksWithoutVectors(queued: boolean): RuleBreaks {
    const notQueued = queued
      ? ' AND NOT EXISTS (SELECT 1 FROM embedding_queue q WHERE q.chunk_id = c.id)'
      : '';
    return this.breaks(
      `${CHUNKS_WITH_DOCUMENT} WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_id = c.id)${notQueued}`,
      chunkLabel('c.id'),
      'c.id',
    );
  }

  /** Chunks waiting in the embedding queue (written before their vector; the next run embeds them). */
  queuedChunks(): RuleBreaks {
    return this.breaks(
      'embedding_queue q JOIN chunks c ON c.id = q.chunk_id LEFT JOIN documents d ON d.id = c.document_id',
      chunkLabel('c.id'),
      'c.id',
    );
  }

  orphanVectors(): RuleBreaks {
    return this.breaks(
      'chunk_vectors v WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = v.chunk_id)',
      "'chunk id ' || v.chunk_id",
      'v.chunk_id',
    );
  }

  /** Vectors whose blob is not `bytes` long (4 bytes per dimension). */
  vectorsNotOfSize(bytes: number): RuleBreaks {
    return this.breaks(
      `chunk_vectors v LEFT JOIN chunks c ON c.id = v.chunk_id LEFT JOIN documents d ON d.id = c.document_id
        WHERE length(v.embedding) != ${Math.trunc(bytes)}`,
      `${chunkLabel('v.chunk_id')} || ': ' || length(v.embedding) || ' bytes'`,
      'v.chunk_id',
    );
  }

  chunksMissingFrom(table: FtsTableName): RuleBreaks {
    return this.breaks(
      `${CHUNKS_WITH_DOCUMENT} WHERE NOT EXISTS (SELECT 1 FROM ${table}_docsize f WHERE f.id = c.id)`,
      `${chunkLabel('c.id')} || ' in ${table}'`,
      'c.id',
    );
  }

  orphanFtsRows(table: FtsTableName): RuleBreaks {
    return this.breaks(
      `${table}_docsize f WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = f.id)`,
      `'${table} rowid ' || f.id`,
      'f.id',
    );
  }

  chunksWithoutDocument(): RuleBreaks {
    return this.breaks(
      `${CHUNKS_WITH_DOCUMENT} WHERE d.id IS NULL`,
      "'chunk id ' || c.id || ' (document id ' || c.document_id || ')'",
      'c.id',
    );
  }

  documentsWithoutChunks(): RuleBreaks {
    return this.breaks(
      'documents d WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.document_id = d.id)',
      'd.path',
      'd.path',
    );
  }

  chunksWithoutWordCounts(): RuleBreaks {
    return this.breaks(
      `${CHUNKS_WITH_DOCUMENT} WHERE NOT EXISTS (SELECT 1 FROM chunk_word_counts w WHERE w.chunk_id = c.id)`,
      chunkLabel('c.id'),
      'c.id',
    );
  }

  orphanWordCounts(): RuleBreaks {
    return this.breaks(
      'chunk_word_counts w WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = w.chunk_id)',
      "'chunk id ' || w.chunk_id",
      'w.chunk_id',
    );
  }

  /**
   * Word counts that disagree with the word table: per-column totals other than `fts_words_docsize` holds for
   * the chunk, a term id `word_terms` does not know, or a blob that does not decode.
   */
  wordCountsDisagreeing(): RuleBreaks {
    const known = new Set(this.db.prepare('SELECT id FROM word_terms').pluck().all() as number[]);
    const rows = this.db
      .prepare(`SELECT ${chunkLabel('c.id')}, w.counts, f.sz FROM chunk_word_counts w
        JOIN chunks c ON c.id = w.chunk_id LEFT JOIN documents d ON d.id = c.document_id
        JOIN fts_words_docsize f ON f.id = w.chunk_id ORDER BY w.chunk_id`)
      .raw()
      .iterate() as IterableIterator<[string, Uint8Array, Uint8Array]>;
    const found: RuleBreaks = { count: 0, samples: [] };
    for (const [label, counts, docsize] of rows) {
      const problem = wordCountProblem(counts, docsizeColumns(docsize, FTS_COLUMNS), known);
      if (problem === null) continue;
      found.count++;
      if (found.samples.length < this.sampleLimit) found.samples.push(`${label}: ${problem}`);
    }
    return found;
  }

  /** The files the last index run refused, or null when no run recorded them. */
  skippedFiles(): SkippedFilesRecord | null {
    return decodeSkippedFiles(this.meta().skipped_files);
  }

  /** Every stored document path. */
  documentPaths(): string[] {
    return this.db.prepare('SELECT path FROM documents ORDER BY path').pluck().all() as string[];
  }

  /** Whether a document is stored at `path` (a refused file keeps the rows of its earlier version). */
  isIndexed(path: string): boolean {
    return this.db.prepare('SELECT 1 FROM documents WHERE path = ?').get(path) !== undefined;
  }

  /** Count the rows of `fromWhere` and name the first few by `label`, in `order`. */
  private breaks(fromWhere: string, label: string, order: string): RuleBreaks {
    const count = this.db.prepare(`SELECT count(*) FROM ${fromWhere}`).pluck().get() as number;
    if (count === 0) return { count, samples: [] };
    const samples = this.db
      .prepare(`SELECT ${label} FROM ${fromWhere} ORDER BY ${order} LIMIT ${this.sampleLimit}`)
      .pluck()
      .all() as string[];
    return { count, samples };
  }
}

/** Why one chunk's counts blob is wrong, or null when its column totals are the word table's. */
function wordCountProblem(blob: Uint8Array, docsize: number[], known: ReadonlySet<number>): string | null {
  const totals = [0, 0, 0];
  let unknown = 0;
  try {
    decodeTermCounts(blob, (termId, heading, context, content) => {
      if (!known.has(termId)) unknown++;
      totals[0]! += heading;
      totals[1]! += context;
      totals[2]! += content;
    });
  } catch {
    return 'the counts do not decode';
  }
  if (unknown > 0) return `${unknown} term ids not in word_terms`;
  const expected = [0, 1, 2].map((column) => docsize[column] ?? 0);
  if (totals.every((total, column) => total === expected[column])) return null;
  return `${totals.join('/')} tokens counted, fts_words has ${expected.join('/')}`;
}
