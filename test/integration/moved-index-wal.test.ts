// The rule the rebuild swap relies on: a connection still open on an index file that was renamed away (another
// process's `groove index --force`) cannot harm the new file when it closes — SQLite skips the checkpoint and
// the WAL deletion of a moved database — so rows committed to the new file's WAL survive for other processes.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';

let root: string;
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function walDatabase(file: string, value: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE t(v TEXT); INSERT INTO t VALUES ('${value}')`);
  db.close();
}

describe('a connection on an index file renamed away', () => {
  it('closes without deleting the new file’s WAL or losing what was committed there', () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-wal-')));
    const index = path.join(root, 'index.db');
    walDatabase(index, 'old');
    const stale = new Database(index);
    expect(stale.prepare('SELECT count(*) FROM t').pluck().get()).toBe(1);

    walDatabase(`${index}.rebuild`, 'new');
    for (const suffix of ['-wal', '-shm']) fs.rmSync(index + suffix, { force: true });
    fs.renameSync(`${index}.rebuild`, index);
    const writer = new Database(index);
    writer.exec("INSERT INTO t VALUES ('feedback')"); // stays in the WAL while `writer` is open

    stale.close();
    expect(fs.existsSync(`${index}-wal`)).toBe(true);
    const seen = execFileSync(
      process.execPath,
      [
        '-e',
        `const D = require(${JSON.stringify(require.resolve('better-sqlite3'))});
         const db = new D(${JSON.stringify(index)}, { readonly: true });
         process.stdout.write(db.prepare("SELECT group_concat(v, ',') FROM t").pluck().get());
         db.close();`,
      ],
      { encoding: 'utf8' },
    );
    writer.close();
    expect(seen).toBe('new,feedback');
  });
});
