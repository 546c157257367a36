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

/**
 * Tokenizes chunks through a TEMP contentless FTS5 table declared with the word table's own tokenizer and
 * stores their counts. One writer per connection; the TEMP tables never touch the index file.
 */
export class WordCountWriter {
  private readonly statements;
  private termIds = new Map<string, number>();
  /** The highest id the cache knows; a different MAX(id) in the table means a rollback undid some inserts. */
  private knownMaxId = -1;

  constructor(db: SqliteDatabase) {
    const tableSql = db
      .prepare("SELECT sql FROM sqlite_master WHERE name = 'fts_words'")
      .pluck()
      .get() as string;
    const tokenizer = /tokenize\s*=\s*'([^']*)'/i.exec(tableSql)?.[1] ?? 'unicode61';
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${SCRATCH} USING fts5(heading, context, content,
      content='', tokenize='${tokenizer.replaceAll("'", "''")}')`);
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${SCRATCH}_v USING fts5vocab(temp, ${SCRATCH}, 'instance')`,
    );
    this.statements = {
      insertScratch: db.prepare(
        `INSERT INTO temp.${SCRATCH}(rowid, heading, context, content) VALUES (?, ?, ?, ?)`,
      ),
      readScratch: db.prepare(`SELECT doc, term, col FROM temp.${SCRATCH}_v`).raw(),
      clearScratch: db.prepare(`INSERT INTO temp.${SCRATCH}(${SCRATCH}) VALUES ('delete-all')`),
      allTerms: db.prepare('SELECT term, id FROM word_terms').raw(),
      maxTermId: db.prepare('SELECT coalesce(max(id), 0) FROM word_terms').pluck(),
      insertTerm: db.prepare('INSERT INTO word_terms(term) VALUES (?)'),
      insertCounts: db.prepare('INSERT OR REPLACE INTO chunk_word_counts(chunk_id, counts) VALUES (?, ?)'),
    };
  }

  /** Tokenize and store the counts of these chunks (ids with their word-level columns), in the caller's transaction. */
  write(chunks: readonly { id: number; words: WordColumns }[]): void {
    if (chunks.length === 0) return;
    const s = this.statements;
    this.syncTermCache();
    chunks.forEach((chunk, i) => {
      s.insertScratch.run(i + 1, chunk.words.heading, chunk.words.context, chunk.words.content);
    });
    const perChunk = chunks.map(() => new Map<number, [number, number, number]>());
    const columns: Record<string, number> = { heading: 0, context: 1, content: 2 };
    for (const [doc, term, col] of s.readScratch.all() as [number, string, string][]) {
      const termId = this.termId(term);
      const counts = perChunk[doc - 1]!;
      let entry = counts.get(termId);
      if (!entry) {
        entry = [0, 0, 0];
        counts.set(termId, entry);
      }
      entry[columns[col] ?? 2]!++;
    }
    s.clearScratch.run();
    chunks.forEach((chunk, i) => {
      const sorted = [...perChunk[i]!].sort((a, b) => a[0] - b[0]);
      const blob = encodeTermCounts({ termIds: sorted.map((e) => e[0]), counts: sorted.map((e) => e[1]) });
      s.insertCounts.run(chunk.id, blob);
    });
  }

  private syncTermCache(): void {
    const maxId = this.statements.maxTermId.get() as number;
    if (maxId === this.knownMaxId) return;
    this.termIds = new Map(this.statements.allTerms.all() as [string, number][]);
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
