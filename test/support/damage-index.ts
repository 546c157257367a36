// Files for index-path tests: a damaged groove index (its header intact, the schema page overwritten), and
// someone else's SQLite database. Test-only.
import fs from 'node:fs';
import Database from 'better-sqlite3';

/** Overwrite page 1 after the 100-byte header: SQLite can no longer read the schema, the header still says groove. */
export function damageIndex(dbPath: string): void {
  const fd = fs.openSync(dbPath, 'r+');
  try {
    fs.writeSync(fd, Buffer.alloc(3000, 0x5a), 0, 3000, 100);
  } finally {
    fs.closeSync(fd);
  }
}

/** An SQLite database that is not groove's: one table of the user's own. */
export function writeForeignDatabase(dbPath: string): void {
  const db = new Database(dbPath);
  db.exec("CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('bread')");
  db.close();
}
