// The top-level frontmatter fields of a Markdown text with the file line each one sits on, read by the same
// fence rule and YAML loader the indexer uses (frontmatter.ts), for checks that report `file:line`.
import { isSeq, type Node } from 'yaml';
import { findFrontmatterBlock, frontmatterKey, loadFrontmatterYaml } from './frontmatter.js';

export interface FrontmatterField {
  key: string;
  /** The plain value: string, number, boolean, null, a list or a mapping. */
  value: unknown;
  /** File line of the key (1-based; the opening `---` is line 1). */
  line: number;
  /** For a list written as a YAML sequence, the file line of each item; otherwise null. */
  itemLines: number[] | null;
}

export type FrontmatterFields =
  /** `hasBlock` is false for a text without frontmatter (no fields). */
  | { ok: true; hasBlock: boolean; fields: FrontmatterField[] }
  /** The block exists but cannot be used; `line` is where the YAML error is, or the opening fence. */
  | { ok: false; error: string; line: number };

const BOM = '\uFEFF';
/** The line of the opening `---`. */
const FENCE_LINE = 1;

/** Read the fields of `text`'s frontmatter in source order. Never throws. */
export function readFrontmatterFields(text: string): FrontmatterFields {
  const block = findFrontmatterBlock(text, text.startsWith(BOM) ? 1 : 0);
  if (!block) return { ok: true, hasBlock: false, fields: [] };
  const yamlText = text.slice(block.yamlStart, block.yamlEnd).replace(/\r\n/g, '\n');
  const loaded = loadFrontmatterYaml(yamlText);
  if (!loaded.ok) return { ok: false, error: loaded.error, line: loaded.line ?? FENCE_LINE };
  const lineAt = lineFinder(yamlText);
  const fields: FrontmatterField[] = [];
  for (const pair of loaded.mapping?.items ?? []) {
    const key = frontmatterKey(pair);
    if (key === null) continue;
    const keyNode = pair.key as Node;
    const line = keyNode.range ? lineAt(keyNode.range[0]) : FENCE_LINE;
    const itemLines = isSeq(pair.value)
      ? pair.value.items.map((item) => {
          const range = (item as Node | null)?.range;
          return range ? lineAt(range[0]) : line;
        })
      : null;
    fields.push({ key, value: loaded.record[key], line, itemLines });
  }
  return { ok: true, hasBlock: true, fields };
}

/** Offset in the YAML text → file line: the YAML starts on line 2, after the opening fence. */
function lineFinder(yamlText: string): (offset: number) => number {
  const newlines: number[] = [];
  for (let at = yamlText.indexOf('\n'); at !== -1; at = yamlText.indexOf('\n', at + 1)) newlines.push(at);
  return (offset) => {
    // Count the newlines before `offset` by binary search.
    let low = 0;
    let high = newlines.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (newlines[mid]! < offset) low = mid + 1;
      else high = mid;
    }
    return FENCE_LINE + 1 + low;
  };
}
