// Per-chunk token counts of the word-level table, written next to its FTS rows: which tokens (as the table's own
// tokenizer produces them, porter stems included) occur how often in each column. They let a long-lived search
// session rank word matches in memory (word-index.ts) with exactly FTS5's bm25, without FTS5's per-row cost.
import type { SqliteDatabase } from './open-database.js';

/** Token counts of one chunk: parallel arrays sorted by term id; counts per column (heading, context, content). */
export interface ChunkTermCounts {
  termIds: number[];
  counts: [number, number, number][];
}

export interface WordColumns {
  heading: string;
  context: string;
  content: string;
}

function pushVarint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
}

/** Little-endian base-128 varints: entry count, then per entry the term-id delta and three column counts. */
export function encodeTermCounts(entries: ChunkTermCounts): Uint8Array {
  const out: number[] = [];
  pushVarint(out, entries.termIds.length);
  let previous = 0;
  entries.termIds.forEach((termId, i) => {
    pushVarint(out, termId - previous);
    previous = termId;
    const [h, c, b] = entries.counts[i]!;
    pushVarint(out, h);
    pushVarint(out, c);
    pushVarint(out, b);
  });
  return Uint8Array.from(out);
}

/** Calls `visit(termId, heading, context, content)` for each entry of an encoded blob, in term-id order. */
export function decodeTermCounts(
  blob: Uint8Array,
  visit: (termId: number, heading: number, context: number, content: number) => void,
): void {
  let at = 0;
  const next = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = blob[at++];
      if (byte === undefined) throw new Error('truncated word-count blob');
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  };
  const count = next();
  let termId = 0;
  for (let i = 0; i < count; i++) {
    termId += next();
    const heading = next();
    const context = next();
    visit(termId, heading, context, next());
  }
}

const SCRATCH = 'groove_word_counts_scratch';
/** Whitespace-separated pieces whose tokens are remembered; the cache is dropped when it grows past this. */
const PIECE_CACHE_LIMIT = 200_000;
const COLUMNS = ['heading', 'context', 'content'] as const;

/**
 * Tokenizes chunks with the word table's own tokenizer and stores their counts. Whitespace always separates
 * tokens under unicode61, so a text's tokens are its whitespace pieces' tokens in order: each distinct piece is
 * tokenized once, through a TEMP contentless FTS5 table declared like fts_words, and remembered — after the first
 * few thousand chunks nearly every piece is known. One writer per connection; TEMP tables never touch the file.
 */
export class WordCountWriter {
  private readonly statements;
  private termIds = new Map<string, number>();
  /** The highest id the cache knows; a different MAX(id) in the table means a rollback undid some inserts. */
  private knownMaxId = -1;
  /** Term ids of each whitespace piece seen so far (dropped with the term cache after a rollback). */
  private readonly pieceTerms = new Map<string, number[]>();

  constructor(db: SqliteDatabase) {
    const tableSql = db
      .prepare("SELECT sql FROM sqlite_master WHERE name = 'fts_words'")
      .pluck()
      .get() as string;
    const tokenizer = /tokenize\s*=\s*'([^']*)'/i.exec(tableSql)?.[1] ?? 'unicode61';
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${SCRATCH} USING fts5(t, content='',
      tokenize='${tokenizer.replaceAll("'", "''")}')`);
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${SCRATCH}_v USING fts5vocab(temp, ${SCRATCH}, 'instance')`,
    );
    this.statements = {
      insertScratch: db.prepare(`INSERT INTO temp.${SCRATCH}(rowid, t) VALUES (?, ?)`),
      readScratch: db.prepare(`SELECT doc, term FROM temp.${SCRATCH}_v ORDER BY doc, offset`).raw(),
      clearScratch: db.prepare(`INSERT INTO temp.${SCRATCH}(${SCRATCH}) VALUES ('delete-all')`),
      allTerms: db.prepare('SELECT term, id FROM word_terms').raw(),
      maxTermId: db.prepare('SELECT coalesce(max(id), 0) FROM word_terms').pluck(),
      insertTerm: db.prepare('INSERT INTO word_terms(term) VALUES (?)'),
      // A plain INSERT: OR REPLACE opens a statement journal, whose savepoint makes FTS5 flush its pending terms
      // into a new segment on every row (measured: 10k chunks 4.0 → 2.8 s to index).
      insertCounts: db.prepare('INSERT INTO chunk_word_counts(chunk_id, counts) VALUES (?, ?)'),
    };
  }

  /** Tokenize and store the counts of these chunks (ids with their word-level columns), in the caller's transaction. */
  write(chunks: readonly { id: number; words: WordColumns }[]): void {
    if (chunks.length === 0) return;
    this.syncTermCache();
    const pieces = chunks.map((chunk) => COLUMNS.map((column) => splitPieces(chunk.words[column])));
    this.learnPieces(pieces.flat(2));
    chunks.forEach((chunk, i) => {
      const counts = new Map<number, [number, number, number]>();
      pieces[i]!.forEach((columnPieces, column) => {
        for (const piece of columnPieces) {
          for (const termId of this.pieceTerms.get(piece)!) {
            let entry = counts.get(termId);
            if (!entry) {
              entry = [0, 0, 0];
              counts.set(termId, entry);
            }
            entry[column]!++;
          }
        }
      });
      const sorted = [...counts].sort((a, b) => a[0] - b[0]);
      const blob = encodeTermCounts({ termIds: sorted.map((e) => e[0]), counts: sorted.map((e) => e[1]) });
      this.statements.insertCounts.run(chunk.id, blob);
    });
  }

  /** Tokenize every piece not seen before in one pass through the scratch table. */
  private learnPieces(pieces: readonly string[]): void {
    const unseen = [...new Set(pieces.filter((piece) => !this.pieceTerms.has(piece)))];
    if (unseen.length === 0) return;
    if (this.pieceTerms.size + unseen.length > PIECE_CACHE_LIMIT) this.pieceTerms.clear();
    const s = this.statements;
    const learned = unseen.map(() => [] as number[]);
    unseen.forEach((piece, i) => {
      s.insertScratch.run(i + 1, piece);
    });
    for (const [doc, term] of s.readScratch.all() as [number, string][])
      learned[doc - 1]!.push(this.termId(term));
    s.clearScratch.run();
    unseen.forEach((piece, i) => {
      this.pieceTerms.set(piece, learned[i]!);
    });
  }

  private syncTermCache(): void {
    const maxId = this.statements.maxTermId.get() as number;
    if (maxId === this.knownMaxId) return;
    this.termIds = new Map(this.statements.allTerms.all() as [string, number][]);
    this.pieceTerms.clear();
    this.knownMaxId = maxId;
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = Number(this.statements.insertTerm.run(term).lastInsertRowid);
      this.termIds.set(term, id);
      this.knownMaxId = Math.max(this.knownMaxId, id);
    }
    return id;
  }
}

/** Whitespace-separated pieces: unicode61 never lets a token span whitespace. */
function splitPieces(text: string): string[] {
  return text.split(/\s+/).filter((piece) => piece !== '');
}
