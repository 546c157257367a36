// What a shared store's SQLite working copy holds, for comparing two copies: everything readWorkingCopy reads,
// without the text generation each copy counts for itself. Test-only.
import Database from 'better-sqlite3';
import { readWorkingCopy } from '../../src/store/working-copy.js';

export function workingCopyContents(dbPath: string) {
  const db = new Database(dbPath, { readonly: true });
  try {
    const contents = readWorkingCopy(db);
    const meta = [...contents.meta].filter(([key]) => key !== 'text_generation').sort();
    return { ...contents, meta };
  } finally {
    db.close();
  }
}
