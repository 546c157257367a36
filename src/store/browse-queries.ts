// Read-side SQL for browsing the index rather than ranking it: one document by its exact path (get_document)
// and the per-document facts the topic tree is built from (list_topics).

import type { SqliteDatabase } from './open-database.js';
import { decodeTags } from './tags-column.js';

export interface IndexedDocument {
  id: number;
  path: string;
  title: string;
  category: string | null;
  topic: string | null;
  date: string | null;
  tags: string[];
  sizeBytes: number;
}

export interface TopicRow {
  path: string;
  title: string;
  category: string | null;
  topic: string | null;
  date: string | null;
}

/** The browse operations bound to one connection (the app layer sees only this shape). */
export interface BrowseReader {
  /** The document stored under exactly this path (byte-wise comparison), or null. */
  findDocument(path: string): IndexedDocument | null;
  /** Every document's path, title, category, topic and date, ordered by path. */
  listTopicRows(): TopicRow[];
}

export function createBrowseReader(db: SqliteDatabase): BrowseReader {
  const byPath = db.prepare(`SELECT id, path, title, category, topic, date, tags, size_bytes AS sizeBytes
    FROM documents WHERE path = ?`);
  const topicRows = db.prepare('SELECT path, title, category, topic, date FROM documents ORDER BY path');
  return {
    findDocument(path) {
      // SQLite's default BINARY collation makes `=` byte-identical: no case or Unicode-form variants match.
      const row = byPath.get(path) as (Omit<IndexedDocument, 'tags'> & { tags: string }) | undefined;
      return row ? { ...row, tags: decodeTags(row.tags) } : null;
    },
    listTopicRows: () => topicRows.all() as TopicRow[],
  };
}
