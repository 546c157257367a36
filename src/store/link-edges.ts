// The read side of links: stored link rows resolved to indexed documents now (document/resolve-note-link.ts), so a
// link to a note indexed later, renamed or removed always answers for the files indexed at this moment.
// `readLinkEdges` is what search asks per query: three indexed lookups, never a scan. `tallyLinks` resolves every
// stored link (status, doctor).
import {
  documentNameKeys,
  isNoteTarget,
  resolveNoteLink,
  type StoredLink,
} from '../document/resolve-note-link.js';
import type { LinkEdge, LinkKind } from '../types.js';
import type { SqliteDatabase } from './open-database.js';

export interface LinkTally {
  /** Stored links: each distinct target a note names, once per note. */
  links: number;
  /** Links to a note-like target (no extension, or one groove indexes) that matches no indexed document. */
  dangling: number;
  /** The first few dangling links as `source → target as written`, in path order. */
  danglingSamples: string[];
}

/** The link reads bound to one connection (the app layer sees only this shape). */
export interface LinkReader {
  /**
   * Links between indexed documents with `source` or `target` among `paths`: both ends indexed, self-links
   * dropped, one edge per (source, target, kind), ordered by source, target, kind.
   */
  readLinkEdges(paths: readonly string[]): LinkEdge[];
  /** Every stored link resolved; `noteExtensions` as `[parsers] enabled` spells them (`md`, `txt`). */
  tallyLinks(noteExtensions: readonly string[], sampleLimit: number): LinkTally;
}

interface LinkRow {
  documentId: number;
  position: number;
  source: string;
  kind: LinkKind;
  written: string;
  target: string;
  anchored: number;
  nameKey: string;
}

const LINK_COLUMNS = `l.document_id AS documentId, l.position, d.path AS source, l.kind, l.written, l.target,
  l.anchored, l.name_key AS nameKey`;

export function createLinkReader(db: SqliteDatabase): LinkReader {
  // Prepared on first use: a session that never reads links never compiles them (and an index from before
  // schema 4, opened read-only by doctor, has no such tables).
  let statements: ReturnType<typeof prepare> | null = null;
  const prepared = () => {
    statements ??= prepare(db);
    return statements;
  };
  return {
    readLinkEdges: (paths) => readLinkEdges(prepared(), paths),
    tallyLinks: (noteExtensions, sampleLimit) => tallyLinks(prepared(), noteExtensions, sampleLimit),
  };
}

function prepare(db: SqliteDatabase) {
  return {
    linksFrom: db.prepare(`SELECT ${LINK_COLUMNS} FROM documents d JOIN links l ON l.document_id = d.id
      WHERE d.path IN (SELECT value FROM json_each(?))`),
    linksByName: db.prepare(`SELECT ${LINK_COLUMNS} FROM links l JOIN documents d ON d.id = l.document_id
      WHERE l.name_key IN (SELECT value FROM json_each(?))`),
    documentsByName: db.prepare(`SELECT n.name, d.path FROM document_names n
      JOIN documents d ON d.id = n.document_id WHERE n.name IN (SELECT value FROM json_each(?))`),
    allLinks: db.prepare(`SELECT ${LINK_COLUMNS} FROM links l JOIN documents d ON d.id = l.document_id
      ORDER BY d.path, l.position`),
    allNames: db.prepare(
      `SELECT n.name, d.path FROM document_names n JOIN documents d ON d.id = n.document_id`,
    ),
  };
}

type Statements = ReturnType<typeof prepare>;

/**
 * Stages: the links written in `paths` → the links that may point at them (their file names are the lookup keys
 * every link to them carries) → the documents those links' names could mean → resolve, keep the edges touching
 * `paths`, collapse duplicates.
 */
function readLinkEdges(s: Statements, paths: readonly string[]): LinkEdge[] {
  if (paths.length === 0) return [];
  const wanted = new Set(paths);
  const rows = new Map<string, LinkRow>();
  const keys = new Set([...wanted].flatMap(documentNameKeys));
  for (const row of [
    ...(s.linksFrom.all(JSON.stringify([...wanted])) as LinkRow[]),
    ...(s.linksByName.all(JSON.stringify([...keys])) as LinkRow[]),
  ])
    rows.set(`${row.documentId}:${row.position}`, row);
  const names = new Set([...rows.values()].map((row) => row.nameKey));
  const candidates = groupByName(s.documentsByName.all(JSON.stringify([...names])) as NameRow[]);
  const edges = new Map<string, LinkEdge>();
  for (const row of rows.values()) {
    const target = resolveNoteLink(storedLink(row), candidates.get(row.nameKey) ?? []);
    if (target === null || target === row.source) continue;
    if (!wanted.has(row.source) && !wanted.has(target)) continue;
    edges.set(JSON.stringify([row.source, target, row.kind]), { source: row.source, target, kind: row.kind });
  }
  return [...edges.values()].sort(compareEdges);
}

function tallyLinks(s: Statements, noteExtensions: readonly string[], sampleLimit: number): LinkTally {
  const candidates = groupByName(s.allNames.all() as NameRow[]);
  const tally: LinkTally = { links: 0, dangling: 0, danglingSamples: [] };
  for (const row of s.allLinks.iterate() as IterableIterator<LinkRow>) {
    tally.links++;
    if (resolveNoteLink(storedLink(row), candidates.get(row.nameKey) ?? []) !== null) continue;
    if (!isNoteTarget(row.target, noteExtensions)) continue;
    tally.dangling++;
    if (tally.danglingSamples.length < sampleLimit)
      tally.danglingSamples.push(`${row.source} → ${row.written}`);
  }
  return tally;
}

interface NameRow {
  name: string;
  path: string;
}

function groupByName(rows: readonly NameRow[]): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const row of rows) {
    const list = byName.get(row.name);
    if (list) list.push(row.path);
    else byName.set(row.name, [row.path]);
  }
  return byName;
}

function storedLink(row: LinkRow): StoredLink {
  return { source: row.source, kind: row.kind, target: row.target, anchored: row.anchored === 1 };
}

function compareEdges(a: LinkEdge, b: LinkEdge): number {
  return compare(a.source, b.source) || compare(a.target, b.target) || compare(a.kind, b.kind);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
