// The write side of links: one document's link rows and the names it is found under, written inside the
// document's own transaction (DocumentStore.writeDocument), so a reader sees a note's old links or its new ones.
// Both tables cascade from `documents`: a deleted or replaced document takes its rows with it.
import { documentNameKeys, linkNameKey } from '../document/resolve-note-link.js';
import type { NoteLink } from '../types.js';
import type { SqliteDatabase } from './open-database.js';

export class LinkRowWriter {
  private readonly statements;

  constructor(db: SqliteDatabase) {
    this.statements = {
      insertLink: db.prepare(`INSERT INTO links
        (document_id, position, kind, written, target, anchored, heading, name_key)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
      insertName: db.prepare('INSERT OR IGNORE INTO document_names(name, document_id) VALUES (?, ?)'),
      documentsWithoutNames: db.prepare(`SELECT d.id, d.path FROM documents d
        WHERE NOT EXISTS (SELECT 1 FROM document_names n WHERE n.document_id = d.id)`),
    };
  }

  /** The rows of a document just inserted under `documentId` (the caller's transaction). */
  write(documentId: number, path: string, links: readonly NoteLink[]): void {
    const s = this.statements;
    for (const name of documentNameKeys(path)) s.insertName.run(name, documentId);
    links.forEach((link, position) => {
      s.insertLink.run(
        documentId,
        position,
        link.kind,
        link.written,
        link.target,
        link.anchored ? 1 : 0,
        link.heading,
        linkNameKey(link.target),
      );
    });
  }

  /**
   * Names for every document that has none: an index from schema 3 (whose documents this run did not rewrite,
   * say a file refused this time) is still found by the links of others. Returns how many documents got names.
   */
  backfillNames(): number {
    const s = this.statements;
    const rows = s.documentsWithoutNames.all() as { id: number; path: string }[];
    for (const row of rows) for (const name of documentNameKeys(row.path)) s.insertName.run(name, row.id);
    return rows.length;
  }
}
