// Raw postings of the word-level FTS table — query tokens under the table's own tokenizer, every instance of a
// token, per-row token counts — so `groove tune` can recompute bm25 for 64 weight sets in memory. The helper
// tables live in the connection's TEMP schema only: the index file is never written.
import type { SqliteDatabase } from './open-database.js';
import { type TokenizedTable, WordTokenizer } from './word-tokenizer.js';

/** Occurrences of one token: parallel arrays, one entry per instance (row, column index, token offset). */
export interface TokenInstances {
  rows: Int32Array;
  columns: Int8Array;
  offsets: Int32Array;
}

export interface RowLengths {
  /** Tokens per row over all columns (FTS5's xColumnSize(-1)), by rowid. */
  lengths: Map<number, number>;
  rowCount: number;
  tokenTotal: number;
}

export interface FtsPostingsReader {
  /** The FTS columns in declaration order (bm25 weights are given in this order). */
  readonly columns: readonly string[];
  /** Each text as the table's tokenizer splits it (porter stems included). */
  tokenize(texts: readonly string[]): string[][];
  readInstances(token: string): TokenInstances;
  readRowLengths(): RowLengths;
  /** Rowids matching `expression`, unranked. */
  matchRowIds(expression: string): number[];
}

/** Decode one SQLite varint (big-endian 7-bit groups; a 9th byte carries 8 bits). */
function readVarint(bytes: Uint8Array, start: number): { value: number; next: number } {
  let value = 0;
  for (let i = 0; i < 8; i++) {
    const byte = bytes[start + i]!;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return { value, next: start + i + 1 };
  }
  return { value: value * 256 + bytes[start + 8]!, next: start + 9 };
}

/** The per-column token counts of one `<table>_docsize` blob, in column order (a short blob gives fewer). */
export function docsizeColumns(blob: Uint8Array, columnCount: number): number[] {
  const columns: number[] = [];
  let at = 0;
  for (let c = 0; c < columnCount && at < blob.length; c++) {
    const { value, next } = readVarint(blob, at);
    columns.push(value);
    at = next;
  }
  return columns;
}

/** Sum of the per-column varints of one docsize blob. */
function sumDocsize(blob: Uint8Array, columnCount: number): number {
  return docsizeColumns(blob, columnCount).reduce((sum, n) => sum + n, 0);
}

/**
 * The row and token totals FTS5's bm25 divides by (xRowCount, xColumnTotalSize(-1)), from the table's averages
 * record. In a contentless table a delete leaves them unchanged, so they count every row ever inserted since the
 * table was built — bm25 uses them as they are, and so must anything that reproduces its ranking.
 */
export function readFtsTotals(
  db: SqliteDatabase,
  table: TokenizedTable,
): { rowCount: number; tokenTotal: number } {
  const block = db.prepare(`SELECT block FROM ${table}_data WHERE id = 1`).pluck().get() as
    | Uint8Array
    | undefined;
  if (!block) return { rowCount: 0, tokenTotal: 0 };
  let at = 0;
  const values: number[] = [];
  while (at < block.length) {
    const { value, next } = readVarint(block, at);
    values.push(value);
    at = next;
  }
  const [rowCount = 0, ...columns] = values;
  return { rowCount, tokenTotal: columns.reduce((sum, n) => sum + n, 0) };
}

export function createFtsPostingsReader(db: SqliteDatabase, table: TokenizedTable): FtsPostingsReader {
  const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[];
  if (columns.length === 0) throw new Error(`FTS table "${table}" does not exist`);
  const columnIndex = new Map(columns.map((name, i) => [name, i]));
  const tokenizer = WordTokenizer.inTempSchema(db, table);
  const vocab = `groove_inst_${table}`;
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${vocab} USING fts5vocab(main, ${table}, 'instance')`);
  const readTerm = db.prepare(`SELECT doc, col, offset FROM temp.${vocab} WHERE term = ?`).raw();
  const match = db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ?`).pluck();
  let lengths: RowLengths | null = null;

  return {
    columns,
    tokenize: (texts) => tokenizer.tokenize(texts),
    readInstances(token) {
      const rows = readTerm.all(token) as [number, string, number][];
      const result: TokenInstances = {
        rows: new Int32Array(rows.length),
        columns: new Int8Array(rows.length),
        offsets: new Int32Array(rows.length),
      };
      rows.forEach(([doc, col, offset], i) => {
        result.rows[i] = doc;
        result.columns[i] = columnIndex.get(col) ?? -1;
        result.offsets[i] = offset;
      });
      return result;
    },
    readRowLengths() {
      if (lengths) return lengths;
      const map = new Map<number, number>();
      let tokenTotal = 0;
      const rows = db.prepare(`SELECT id, sz FROM ${table}_docsize`).raw().iterate() as IterableIterator<
        [number, Uint8Array]
      >;
      for (const [id, sz] of rows) {
        const size = sumDocsize(sz, columns.length);
        map.set(id, size);
        tokenTotal += size;
      }
      // bm25 divides by FTS5's own totals, which still count deleted rows (readFtsTotals); a table without
      // deletes has exactly the live sums.
      const totals = readFtsTotals(db, table);
      lengths =
        totals.rowCount > 0 ? { lengths: map, ...totals } : { lengths: map, rowCount: map.size, tokenTotal };
      return lengths;
    },
    matchRowIds(expression) {
      return match.all(expression) as number[];
    },
  };
}
