// Tokens exactly as `fts_words` makes them (porter stems included), for everything that has to see a text the way
// the table does: the per-chunk counts written at index time, the in-memory word ranking's query terms, tune's
// postings. Texts go into a scratch contentless FTS5 table declared with the same tokenizer and come back, in
// order, through an fts5vocab 'instance' table; the scratch table lives in a TEMP schema, never in the index file.
import Database from 'better-sqlite3';
import type { SqliteDatabase } from './open-database.js';

const SCRATCH = 'groove_word_tokens';

/** The `tokenize=` option fts_words was declared with; FTS5's default, unicode61, when it has none. */
function wordTableTokenizer(index: SqliteDatabase): string {
  const tableSql = index.prepare("SELECT sql FROM sqlite_master WHERE name = 'fts_words'").pluck().get() as
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
    return new WordTokenizer(new Database(':memory:'), wordTableTokenizer(index), true);
  }

  /**
   * In the index connection's own TEMP schema, for a connection that only reads the index (tune): nothing to
   * open or close. Tokenizers of one connection share the scratch table.
   */
  static inTempSchema(index: SqliteDatabase): WordTokenizer {
    return new WordTokenizer(index, wordTableTokenizer(index), false);
  }

  private constructor(
    private readonly db: SqliteDatabase,
    tokenizer: string,
    private readonly ownsConnection: boolean,
  ) {
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${SCRATCH} USING fts5(t, content='', tokenize='${tokenizer.replaceAll("'", "''")}')`,
    );
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${SCRATCH}_v USING fts5vocab(temp, ${SCRATCH}, 'instance')`,
    );
    const clear = db.prepare(`INSERT INTO temp.${SCRATCH}(${SCRATCH}) VALUES ('delete-all')`);
    const insert = db.prepare(`INSERT INTO temp.${SCRATCH}(rowid, t) VALUES (?, ?)`);
    this.statements = {
      read: db.prepare(`SELECT doc, term FROM temp.${SCRATCH}_v ORDER BY doc, offset`).raw(),
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
