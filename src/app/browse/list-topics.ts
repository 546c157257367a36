// list_topics: what the knowledge base covers, as category/topic groups with file counts, the latest date, a
// bounded sample of titles, and the tree of folders below each group.
import type { TopicRow } from '../../store/browse-queries.js';

/** Titles listed per group; the rest are counted in `moreTitles` so a huge group stays a small answer. */
export const MAX_TITLES_PER_TOPIC = 20;

export interface TopicTreeNode {
  segment: string;
  /** Files anywhere beneath this folder. */
  fileCount: number;
  children: TopicTreeNode[];
}

export interface TopicEntry {
  /** First path segment (null for files at the KB root). */
  category: string | null;
  /** Frontmatter `topic`, else the second path segment (null when neither exists). */
  topic: string | null;
  fileCount: number;
  /** The latest frontmatter `date` among the group's files, or null when none has one. */
  lastUpdated: string | null;
  titles: string[];
  moreTitles: number;
  /** Folders below `category/<second segment>`, by name; file names are not nodes. */
  children: TopicTreeNode[];
}

export interface TopicListing {
  totalDocuments: number;
  topics: TopicEntry[];
}

interface MutableNode {
  count: number;
  children: Map<string, MutableNode>;
}

/** Group documents by (category, topic), sorted by category then topic (nulls first). */
export function listTopics(rows: readonly TopicRow[]): TopicListing {
  const groups = new Map<string, { entry: TopicEntry; tree: MutableNode }>();
  for (const row of rows) {
    const key = JSON.stringify([row.category, row.topic]);
    let group = groups.get(key);
    if (!group) {
      group = {
        entry: {
          category: row.category,
          topic: row.topic,
          fileCount: 0,
          lastUpdated: null,
          titles: [],
          moreTitles: 0,
          children: [],
        },
        tree: { count: 0, children: new Map() },
      };
      groups.set(key, group);
    }
    const { entry } = group;
    entry.fileCount++;
    if (row.date !== null && (entry.lastUpdated === null || row.date > entry.lastUpdated)) {
      entry.lastUpdated = row.date;
    }
    if (entry.titles.length < MAX_TITLES_PER_TOPIC) entry.titles.push(row.title);
    else entry.moreTitles++;
    addFolders(group.tree, row.path.split('/').slice(2, -1));
  }
  const topics = [...groups.values()].map(({ entry, tree }) => ({ ...entry, children: toNodes(tree) }));
  topics.sort((a, b) => compareNullable(a.category, b.category) || compareNullable(a.topic, b.topic));
  return { totalDocuments: rows.length, topics };
}

function addFolders(root: MutableNode, folders: string[]): void {
  let node = root;
  for (const folder of folders) {
    let child = node.children.get(folder);
    if (!child) {
      child = { count: 0, children: new Map() };
      node.children.set(folder, child);
    }
    child.count++;
    node = child;
  }
}

function toNodes(node: MutableNode): TopicTreeNode[] {
  return [...node.children.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([segment, child]) => ({ segment, fileCount: child.count, children: toNodes(child) }));
}

function compareNullable(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}
