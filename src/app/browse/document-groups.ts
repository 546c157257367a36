// Folder groups of the indexed documents, as MCP resources offer them: the root, every first-level folder and
// every second-level folder, each with the documents beneath it.
import type { TopicRow } from '../../store/browse-queries.js';

/** A folder prefix ('' is the root) and how many indexed documents lie beneath it. */
export interface DocumentGroup {
  prefix: string;
  fileCount: number;
}

export interface GroupMember {
  path: string;
  title: string;
}

/** A group lists at most this many documents; the rest are counted, so a huge folder stays a small answer. */
export const MAX_GROUP_MEMBERS = 500;

/** The root, then each folder one or two levels deep, by prefix. */
export function listDocumentGroups(rows: readonly TopicRow[]): DocumentGroup[] {
  const counts = new Map<string, number>([['', rows.length]]);
  for (const row of rows) {
    const folders = row.path.split('/').slice(0, -1);
    for (let depth = 1; depth <= Math.min(2, folders.length); depth++) {
      const prefix = folders.slice(0, depth).join('/');
      counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
    }
  }
  return [...counts]
    .map(([prefix, fileCount]) => ({ prefix, fileCount }))
    .sort((a, b) => (a.prefix < b.prefix ? -1 : 1));
}

/** The documents beneath `prefix` (every one for the root), by path, at most MAX_GROUP_MEMBERS. */
export function membersOf(
  rows: readonly TopicRow[],
  prefix: string,
): { members: GroupMember[]; more: number } | null {
  const inside = prefix === '' ? rows : rows.filter((row) => row.path.startsWith(`${prefix}/`));
  if (inside.length === 0) return null;
  const members = inside.slice(0, MAX_GROUP_MEMBERS).map((row) => ({ path: row.path, title: row.title }));
  return { members, more: inside.length - members.length };
}
