// What a long-lived reader asks of its connection: which commit it sees (data_version), which text the index
// holds (the text generation), reads that must come from one snapshot, and one read transaction shared by
// overlapping users.
import type { SqliteDatabase } from './open-database.js';

export class ReadConnection {
  /** Open withReadTransaction calls sharing the read transaction. */
  private transactionUsers = 0;

  /** `pageCacheKib`: SQLite's page cache of this connection, in KiB. */
  constructor(
    readonly db: SqliteDatabase,
    options: { pageCacheKib: number },
  ) {
    db.pragma(`cache_size = -${options.pageCacheKib}`);
  }

  /** SQLite's data_version: it changes whenever another connection commits. */
  dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  /**
   * Which documents and chunks the index holds: its text generation (`g…`, bumped by every write of a document,
   * a removal or a word-count backfill), or the data_version (`v…`: any commit) for an index without the counter.
   */
  textKey(): string {
    const generation = this.db
      .prepare("SELECT value FROM index_meta WHERE key = 'text_generation'")
      .pluck()
      .get();
    return typeof generation === 'string' ? `g${generation}` : `v${this.dataVersion()}`;
  }

  countChunks(): number {
    return this.db.prepare('SELECT count(*) FROM chunks').pluck().get() as number;
  }

  /** Run `read` in one read transaction (a savepoint inside an open one): everything it reads is one snapshot. */
  atomically<T>(read: () => T): T {
    return this.db.transaction(read)();
  }

  /**
   * Run `work` inside one deferred read transaction, so everything it reads is one WAL snapshot even while an
   * indexer commits; it only reads, so it ends with a rollback. Overlapping calls share the transaction; the
   * last to finish ends it.
   */
  async withReadTransaction<T>(work: () => Promise<T>): Promise<T> {
    const db = this.db;
    if (this.transactionUsers++ === 0 && !db.inTransaction) db.exec('BEGIN DEFERRED');
    try {
      return await work();
    } finally {
      if (--this.transactionUsers === 0 && db.inTransaction) db.exec('ROLLBACK');
    }
  }
}
