// Tokens exactly as `fts_words` makes them (porter stems included), for everything that has to see a text the way
// the table does: the per-chunk counts written at index time, the in-memory word ranking's query terms, tune's
// postings. Texts go into a scratch contentless FTS5 table declared with the same tokenizer and come back, in
// order, through an fts5vocab 'instance' table; the scratch table lives in a TEMP schema, never in the index file.
import Database from 'better-sqlite3';
import type { SqliteDatabase } from './open-database.js';

/** The FTS tables of an index whose tokens may be asked for. */
export type TokenizedTable = 'fts_words' | 'fts_chunks';

/** Scratch tables per FTS table: each carries its table's tokenizer. */
const SCRATCH: Record<TokenizedTable, string> = {
  fts_words: 'groove_word_tokens',
  fts_chunks: 'groove_trigram_tokens',
};

/** The `tokenize=` option `table` was declared with; FTS5's default, unicode61, when it has none. */
function tableTokenizer(index: SqliteDatabase, table: TokenizedTable): string {
  const tableSql = index.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(table) as
    | string
    | undefined;
  return /tokenize\s*=\s*'([^']*)'/i.exec(tableSql ?? '')?.[1] ?? 'unicode61';
}

export class WordTokenizer {
  private readonly statements;

  /**
   * On a private in-memory connection: it never writes inside (or is rolled back with) a transaction on the
   * index, where a savepoint would make FTS5 flush its pending terms into a new segment. `close()` closes it.
   */
  static forWordTable(index: SqliteDatabase): WordTokenizer {
    return new WordTokenizer(
      new Database(':memory:'),
      tableTokenizer(index, 'fts_words'),
      SCRATCH.fts_words,
      true,
    );
  }

  /**
   * In the index connection's own TEMP schema, for a connection that only reads the index (tune): nothing to
   * open or close. Tokenizers of one connection and table share the scratch table; `table` is fts_words unless
   * named (fts_chunks: its trigram tokens).
   */
  static inTempSchema(index: SqliteDatabase, table: TokenizedTable = 'fts_words'): WordTokenizer {
    return new WordTokenizer(index, tableTokenizer(index, table), SCRATCH[table], false);
  }

  private constructor(
    private readonly db: SqliteDatabase,
    tokenizer: string,
    scratch: string,
    private readonly ownsConnection: boolean,
  ) {
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${scratch} USING fts5(t, content='', tokenize='${tokenizer.replaceAll("'", "''")}')`,
    );
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${scratch}_v USING fts5vocab(temp, ${scratch}, 'instance')`,
    );
    const clear = db.prepare(`INSERT INTO temp.${scratch}(${scratch}) VALUES ('delete-all')`);
    const insert = db.prepare(`INSERT INTO temp.${scratch}(rowid, t) VALUES (?, ?)`);
    this.statements = {
      read: db.prepare(`SELECT doc, term FROM temp.${scratch}_v ORDER BY doc, offset`).raw(),
      // Cleared first, so texts left by a call that failed half-way never mix into the next one.
      write: db.transaction((texts: readonly string[]) => {
        clear.run();
        texts.forEach((text, i) => {
          insert.run(i + 1, text);
        });
      }),
    };
  }

  /** Each text's tokens, in order. */
  tokenize(texts: readonly string[]): string[][] {
    this.statements.write(texts);
    const tokens = texts.map((): string[] => []);
    for (const [doc, term] of this.statements.read.all() as [number, string][]) tokens[doc - 1]!.push(term);
    return tokens;
  }

  close(): void {
    if (this.ownsConnection) this.db.close();
  }
}
