// Edits of the KB registry's text that keep everything else in it (comments, order, the user's spacing): a new
// `[kb.NAME]` table appended, one table's header renamed, one table cut out. The caller parses the result again
// before writing it, so an edit that went wrong is never saved.
import { stringify } from 'smol-toml';
import { splitDottedKey } from '../../core/toml-key-line.js';

/** The values of a new entry as written in the file. */
export interface KbTableValues {
  path: string;
  config?: string;
  model?: string;
  parsers?: readonly string[];
  db_path?: string;
}

/** `text` with a `[kb.NAME]` table for the entry appended (a blank line before it). */
export function appendKbTable(text: string, name: string, values: KbTableValues): string {
  const table: Record<string, unknown> = { path: values.path };
  for (const key of ['config', 'model', 'parsers', 'db_path'] as const)
    if (values[key] !== undefined) table[key] = values[key];
  const block = stringify({ kb: { [name]: table } }).trimEnd();
  const head = text.trimEnd();
  return head === '' ? `${block}\n` : `${head}\n\n${block}\n`;
}

/** Line range [start, end) of the `[kb.NAME]` table: its header up to the next header; null when absent. */
function tableRange(lines: readonly string[], name: string): { start: number; end: number } | null {
  const start = lines.findIndex((line) => isHeaderOf(line, name));
  if (start < 0) return null;
  let end = start + 1;
  while (end < lines.length && !/^\s*\[/.test(lines[end]!)) end++;
  // Comment lines right above the next header belong to that table.
  if (end < lines.length) while (end - 1 > start && /^\s*#/.test(lines[end - 1]!)) end--;
  return { start, end };
}

function isHeaderOf(line: string, name: string): boolean {
  const header = /^\s*\[([^[\]]*)\]\s*(#.*)?$/.exec(line);
  const path = header ? splitDottedKey(header[1]!) : null;
  return path !== null && path.length === 2 && path[0] === 'kb' && path[1] === name;
}

/** `text` with the header of `[kb.OLD]` renamed to `[kb.NEW]`; null when the entry is not such a table. */
export function renameKbTable(text: string, oldName: string, newName: string): string | null {
  const lines = text.split('\n');
  const range = tableRange(lines, oldName);
  if (!range) return null;
  const header = lines[range.start]!;
  const comment = /\]\s*(#.*)$/.exec(header)?.[1];
  const renamed = stringify({ kb: { [newName]: { path: '' } } }).split('\n')[0]!;
  lines[range.start] = comment ? `${renamed} ${comment}` : renamed;
  return lines.join('\n');
}

/** `text` without the `[kb.NAME]` table and the comments right above it; null when it is not such a table. */
export function removeKbTable(text: string, name: string): string | null {
  const lines = text.split('\n');
  const range = tableRange(lines, name);
  if (!range) return null;
  // The comment lines right above the header go with it, then the blank lines before them.
  let start = range.start;
  while (start > 0 && /^\s*#/.test(lines[start - 1]!)) start--;
  while (start > 0 && lines[start - 1]!.trim() === '') start--;
  const kept = [...lines.slice(0, start), ...lines.slice(range.end)];
  const joined = kept.join('\n').replace(/^\n+/, '');
  return joined.trim() === '' ? '' : `${joined.trimEnd()}\n`;
}
