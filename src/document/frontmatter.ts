// YAML frontmatter: detect the leading `---` block, parse it safely, and map it onto DocumentMetadata,
// reporting where the body starts in UTF-8 bytes of the original text.

import { isMap, isScalar, type Pair, parseDocument, type YAMLMap } from 'yaml';
import { countUtf8Bytes } from '../core/utf8-bytes.js';
import type { DocumentMetadata } from '../types.js';
import { nestsDeeperThan, YAML_TOO_DEEP, yamlFailureReason } from './yaml-depth.js';

export interface FrontmatterResult {
  metadata: DocumentMetadata;
  /** The text after the closing fence (or the whole text without its BOM when there is no frontmatter). */
  body: string;
  /** UTF-8 bytes of the original text before `body` (BOM and frontmatter included). */
  bodyByteOffset: number;
  /** Why the frontmatter could not be used, or null. */
  error: string | null;
}

/** Aliases a frontmatter block may expand; a handful is plenty and keeps "billion laughs" inputs cheap. */
const MAX_ALIAS_COUNT = 20;
const KNOWN_KEYS = new Set(['title', 'date', 'topic', 'tags']);
const BOM = '\uFEFF';

export function emptyMetadata(): DocumentMetadata {
  return { title: null, date: null, topic: null, tags: [], extra: {} };
}

/**
 * Split `text` into frontmatter metadata and body. Frontmatter is a first line `---` up to the next line
 * that is `---` or `...` (trailing spaces allowed, CRLF accepted). An unclosed block is not frontmatter.
 * Broken YAML or a non-mapping root gives empty metadata and `error`; the body is still returned.
 */
export function splitFrontmatter(text: string): FrontmatterResult {
  const bomLength = text.startsWith(BOM) ? 1 : 0;
  const block = findFrontmatterBlock(text, bomLength);
  if (!block) {
    return {
      metadata: emptyMetadata(),
      body: text.slice(bomLength),
      bodyByteOffset: bomLength * 3,
      error: null,
    };
  }
  const yamlText = text.slice(block.yamlStart, block.yamlEnd).replace(/\r\n/g, '\n');
  const parsed = parseMetadata(yamlText);
  return {
    metadata: parsed.metadata,
    body: text.slice(block.bodyStart),
    bodyByteOffset: bomLength * 3 + countUtf8Bytes(text, bomLength, block.bodyStart),
    error: parsed.error,
  };
}

/** Where the frontmatter sits in a text: the YAML between the fences, and where the body starts. */
export interface FrontmatterBlock {
  yamlStart: number;
  yamlEnd: number;
  bodyStart: number;
}

/** The frontmatter block of `text`, whose first line starts at `from` (past a BOM), or null. */
export function findFrontmatterBlock(text: string, from: number): FrontmatterBlock | null {
  const firstEnd = text.indexOf('\n', from);
  if (firstEnd === -1 || !isFenceLine(text, from, firstEnd, '---')) return null;
  let lineStart = firstEnd + 1;
  while (lineStart <= text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    if (isFenceLine(text, lineStart, lineEnd, '---') || isFenceLine(text, lineStart, lineEnd, '...')) {
      return {
        yamlStart: firstEnd + 1,
        yamlEnd: lineStart,
        bodyStart: newline === -1 ? text.length : newline + 1,
      };
    }
    if (newline === -1) return null;
    lineStart = newline + 1;
  }
  return null;
}

/** `text[start, end)` is exactly `marker`, allowing trailing spaces/tabs and a `\r`. */
function isFenceLine(text: string, start: number, end: number, marker: string): boolean {
  if (!text.startsWith(marker, start)) return false;
  for (let i = start + marker.length; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code !== 32 && code !== 9 && code !== 13) return false;
  }
  return true;
}

interface ParsedMetadata {
  metadata: DocumentMetadata;
  error: string | null;
}

/**
 * A frontmatter block's YAML as groove reads it: the top-level mapping (null for an empty block) and its plain
 * value, or why it cannot be used, with the file line the YAML error points at (the opening `---` is line 1).
 */
export type FrontmatterYaml =
  | { ok: true; mapping: YAMLMap | null; record: Record<string, unknown> }
  | { ok: false; error: string; line: number | null };

/** Parse the YAML between the fences (LF line ends); never throws. */
export function loadFrontmatterYaml(yamlText: string): FrontmatterYaml {
  try {
    return loadYaml(yamlText);
  } catch (error) {
    // Deeply nested input can exhaust the stack inside the yaml parser; that is a broken block, not a crash.
    return unusable(yamlFailureReason(error), undefined);
  }
}

function loadYaml(yamlText: string): FrontmatterYaml {
  // YAML 1.2 core schema without the 1.1 extras (!!binary, !!timestamp, …): scalars stay strings, numbers,
  // booleans or null, so a `date: 2024-01-05` keeps the author's spelling. Duplicate keys are errors.
  const doc = parseDocument(yamlText, {
    schema: 'core',
    resolveKnownTags: false,
    uniqueKeys: true,
    prettyErrors: true,
  });
  const firstError = doc.errors[0];
  if (firstError) {
    const tooDeep = firstError.message.startsWith('Maximum call stack size exceeded');
    return tooDeep
      ? unusable(YAML_TOO_DEEP, undefined)
      : unusable(firstError.message, firstError.linePos?.[0]);
  }
  if (doc.contents === null) return { ok: true, mapping: null, record: {} };
  if (!isMap(doc.contents)) {
    return { ok: false, error: 'frontmatter is not a mapping of keys to values', line: null };
  }
  const record = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as Record<string, unknown>;
  if (nestsDeeperThan(record)) return unusable(YAML_TOO_DEEP, undefined);
  return { ok: true, mapping: doc.contents, record };
}

function unusable(reason: string, position: { line: number; col: number } | undefined): FrontmatterYaml {
  return { ok: false, error: describeYamlError(reason, position), line: position ? position.line + 1 : null };
}

/** The key of a top-level pair as a field name, or null for keys that are not fields (`<<`, `__proto__`, non-scalars). */
export function frontmatterKey(pair: Pair): string | null {
  const key = isScalar(pair.key) ? String(pair.key.value) : null;
  return key === null || key === '__proto__' || key === '<<' ? null : key;
}

function parseMetadata(yamlText: string): ParsedMetadata {
  const loaded = loadFrontmatterYaml(yamlText);
  if (!loaded.ok) return failed(loaded.error);
  const metadata = emptyMetadata();
  for (const pair of loaded.mapping?.items ?? []) {
    const key = frontmatterKey(pair);
    if (key === null) continue;
    const value = loaded.record[key];
    if (key === 'tags') metadata.tags = toTags(value);
    else if (KNOWN_KEYS.has(key)) metadata[key as 'title' | 'date' | 'topic'] = toText(value, pair.value);
    else metadata.extra[key] = toJsonSafe(value);
  }
  return { metadata, error: null };
}

function failed(error: string): ParsedMetadata {
  return { metadata: emptyMetadata(), error };
}

/** First line of the yaml message, with the position moved to file lines (the opening `---` is line 1). */
function describeYamlError(message: string, position: { line: number; col: number } | undefined): string {
  const reason = (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '').trim();
  if (!position) return `invalid YAML frontmatter: ${reason}`;
  return `invalid YAML frontmatter at line ${position.line + 1}, column ${position.col}: ${reason}`;
}

/** title/date/topic as text; a plain number keeps its source spelling (`1.10` stays "1.10"). */
function toText(value: unknown, node: unknown): string | null {
  let text: string | null = null;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    const source = isScalar(node) ? node.source : undefined;
    text = typeof source === 'string' && source !== '' ? source : String(value);
  } else if (value instanceof Date) text = formatDate(value);
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

function formatDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return String(date);
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
}

/** A list, or a string separated by commas and/or whitespace; trimmed, empties dropped, first occurrence kept. */
function toTags(value: unknown): string[] {
  let raw: unknown[] = [];
  if (Array.isArray(value)) raw = value;
  else if (typeof value === 'string') raw = value.split(/[\s,]+/);
  else if (typeof value === 'number' || typeof value === 'boolean') raw = [String(value)];
  const tags = new Set<string>();
  for (const item of raw) {
    const text =
      typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean'
        ? String(item).trim()
        : '';
    if (text !== '') tags.add(text);
  }
  return [...tags];
}

/**
 * A copy that JSON.stringify round-trips: non-finite numbers and other exotic values become strings, and a
 * self-referencing alias (`a: &x [*x]`, which yaml turns into a cyclic object) becomes null where it loops.
 */
function toJsonSafe(value: unknown, ancestors: Set<object> = new Set()): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return formatDate(value);
  if (typeof value !== 'object') return String(value);
  if (ancestors.has(value)) return null;
  ancestors.add(value);
  let copy: unknown;
  if (Array.isArray(value)) copy = value.map((item) => toJsonSafe(item, ancestors));
  else {
    const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
    const record: Record<string, unknown> = {};
    for (const [key, item] of entries) {
      if (String(key) !== '__proto__') record[String(key)] = toJsonSafe(item, ancestors);
    }
    copy = record;
  }
  ancestors.delete(value);
  return copy;
}
