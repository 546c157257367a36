// The golden file: where it is, a bounded checked read, and a strict parse — every mapping rejects unknown
// keys, so an unsupported idea such as graded `relevance:` aborts the run instead of being silently ignored.

import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { normalizeForQuote } from '../../core/quote-text.js';
import { sha256Hex } from '../../core/sha256.js';
import { nestsDeeperThan, YAML_TOO_DEEP, yamlFailureReason } from '../../document/yaml-depth.js';
import { GrooveError } from '../../errors.js';
import type { CheckedRead, CheckedReadOptions } from '../../fs/checked-read.js';
import type { ExpectedEntry } from '../../measure/eval-metrics.js';
import { compileFtsQuery } from '../../rank/fts-query.js';

/** Far past what a hand-written golden set needs; it lives inside the KB, so a stray file must not be parsed whole. */
export const MAX_GOLDEN_BYTES = 1024 * 1024;
export const DEFAULT_GOLDEN_NAME = '.groove-eval.yml';
const MAX_QUERY_BYTES = 1024;
const ID_CHARS = 32;

export type ReadCheckedFile = (absPath: string, options: CheckedReadOptions) => CheckedRead;

export interface GoldenQuery {
  /** Row key of diffs: the given id, or the first 32 characters of the query. */
  id: string;
  query: string;
  expected: ExpectedEntry[];
  /** Reserved for drill-down filtering. */
  tags: string[];
}

export interface GoldenSet {
  path: string;
  queries: GoldenQuery[];
  /** SHA-256 (hex) of the raw bytes: part of the run fingerprint. */
  hash: string;
}

/**
 * The config whose `[eval] golden` says where the golden set is when neither `--golden`/`--out` nor `[eval]
 * golden` does. `read` (eval, tune, stamp, doctor): `<kb>/.groove-eval.yml` when the KB holds one, else the set in
 * the KB's own folder in groove's data folder (`own`) when there is one, else `<kb>/.groove-eval.yml` (the missing
 * file the error names). `write` (golden build, import): always `own`, so groove never writes into the KB unasked.
 * `own` is null when the KB folder is missing: the config is left as it is.
 */
export function withGoldenDefault(
  config: ResolvedConfig,
  kbPath: string,
  own: string | null,
  use: 'read' | 'write',
  exists: (filePath: string) => boolean,
): ResolvedConfig {
  if (config.eval.golden !== null || own === null) return config;
  const inKb = path.join(kbPath, DEFAULT_GOLDEN_NAME);
  if (use === 'read' && (exists(inKb) || !exists(own))) return config;
  return { ...config, eval: { ...config.eval, golden: own } };
}

/** `--golden` (absolute), else `[eval] golden`, else `<kb>/.groove-eval.yml`. */
export function resolveGoldenPath(options: {
  flag?: string;
  configured: string | null;
  kbPath: string;
}): string {
  return options.flag ?? options.configured ?? path.join(options.kbPath, DEFAULT_GOLDEN_NAME);
}

/** Read and parse the golden file; a missing, refused or invalid file is a GrooveError naming the fix. */
export function loadGoldenFile(
  goldenPath: string,
  options: { read: ReadCheckedFile; kbPath: string },
): GoldenSet {
  const read = options.read(goldenPath, { maxBytes: MAX_GOLDEN_BYTES });
  if (!read.ok) {
    if (read.reason === 'vanished') {
      throw new GrooveError('GOLDEN_NOT_FOUND', `no golden file at "${goldenPath}"`, {
        hint: `create ${path.join(options.kbPath, DEFAULT_GOLDEN_NAME)} or pass --golden <path>`,
      });
    }
    throw new GrooveError(
      'FILE_REFUSED',
      `refusing to read the golden file "${goldenPath}": ${read.detail}`,
      {
        hint:
          read.reason === 'too-large'
            ? 'a golden file is at most 1 MiB; split it'
            : 'use a regular file of its own (no symlink, no hard link)',
      },
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    throw goldenError(goldenPath, 'the file is not valid UTF-8');
  }
  return {
    path: goldenPath,
    queries: parseGoldenYaml(text, goldenPath),
    hash: sha256Hex(read.bytes),
  };
}

function goldenError(goldenPath: string, reason: string, hint?: string): GrooveError {
  return new GrooveError('GOLDEN_INVALID', `failed to parse golden file "${goldenPath}": ${reason}`, {
    hint: hint ?? 'see docs/eval.md for the golden file format',
  });
}

type Mapping = Record<string, unknown>;

function isMapping(value: unknown): value is Mapping {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Lists the allowed keys as the messages do elsewhere: "expected `path` or `heading`". */
function expectedKeys(keys: readonly string[]): string {
  const quoted = keys.map((k) => `\`${k}\``);
  return quoted.length === 2 ? `${quoted[0]} or ${quoted[1]}` : `one of ${quoted.join(', ')}`;
}

/**
 * Refuse golden YAML that eval could not read back: over MAX_GOLDEN_BYTES (`what` names the set, `hint` the way
 * out), or anything parseGoldenYaml refuses (naming `outPath`). Call before writing it.
 */
export function checkGoldenText(
  text: string,
  outPath: string,
  refusal: { what: string; hint: string },
): void {
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_GOLDEN_BYTES) {
    throw new GrooveError(
      'GOLDEN_INVALID',
      `${refusal.what} is ${bytes} bytes, over the ${MAX_GOLDEN_BYTES}-byte limit eval reads`,
      { hint: refusal.hint },
    );
  }
  parseGoldenYaml(text, outPath);
}

/** Parse golden YAML text strictly; `displayPath` names the file in errors. */
export function parseGoldenYaml(text: string, displayPath: string): GoldenQuery[] {
  let raw: unknown;
  try {
    raw = parseYaml(text, { uniqueKeys: true, maxAliasCount: 100 });
  } catch (cause) {
    throw goldenError(displayPath, yamlFailureReason(cause));
  }
  if (nestsDeeperThan(raw)) throw goldenError(displayPath, YAML_TOO_DEEP);
  const fail = (where: string, reason: string, hint?: string): never => {
    throw goldenError(displayPath, where ? `${where}: ${reason}` : reason, hint);
  };
  const strict = (value: unknown, where: string, allowed: readonly string[]): Mapping => {
    if (!isMapping(value)) return fail(where, `expected a mapping with ${expectedKeys(allowed)}`);
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) fail(where, `unknown field \`${key}\`, expected ${expectedKeys(allowed)}`);
    }
    return value;
  };
  const root = strict(raw ?? {}, '', ['defaults', 'queries']);
  if (root.defaults !== undefined && root.defaults !== null)
    strict(root.defaults, 'defaults', ['limit', 'rerank']);
  if (root.queries === undefined) fail('', 'missing field `queries`');
  if (!Array.isArray(root.queries)) return fail('queries', 'expected a list');
  if (root.queries.length === 0) fail('queries', 'the list is empty; add at least one query');

  const byId = new Map<string, number>();
  return root.queries.map((item: unknown, i: number) => {
    const where = `queries[${i}]`;
    const q = strict(item, where, ['id', 'query', 'expected', 'tags']);
    const query = requireString(q.query, `${where}.query`, fail);
    if (query.trim() === '') fail(`${where}.query`, 'must not be empty');
    if (Buffer.byteLength(query) > MAX_QUERY_BYTES)
      fail(`${where}.query`, 'longer than the 1024-byte query limit');
    const compiled = compileFtsQuery(query);
    if (compiled.kind === 'exclusion-only')
      fail(`${where}.query`, compiled.message, 'add a word to search for');
    const id =
      q.id === undefined || q.id === null
        ? [...query].slice(0, ID_CHARS).join('')
        : requireString(q.id, `${where}.id`, fail);
    const earlier = byId.get(id);
    if (earlier !== undefined) {
      fail(
        where,
        `id "${id}" is already used by queries[${earlier}]`,
        `give each query a unique \`id\` (without one, the first ${ID_CHARS} characters of the query are used)`,
      );
    }
    byId.set(id, i);
    if (q.expected === undefined) fail(where, 'missing field `expected`');
    if (!Array.isArray(q.expected)) return fail(`${where}.expected`, 'expected a list');
    // An empty list is a negative query: the KB should not answer it (abstention, never the ranking metrics).
    const expected = q.expected.map((entry: unknown, j: number) => {
      const at = `${where}.expected[${j}]`;
      const e = strict(entry, at, ['path', 'heading', 'quote', 'kb']);
      if (e.path === undefined) fail(at, 'missing field `path`');
      const entryPath = requireString(e.path, `${at}.path`, fail);
      if (entryPath === '') fail(`${at}.path`, 'must not be empty');
      const heading =
        e.heading === undefined || e.heading === null
          ? null
          : requireString(e.heading, `${at}.heading`, fail);
      const kb = e.kb === undefined || e.kb === null ? null : requireString(e.kb, `${at}.kb`, fail);
      if (kb === '') fail(`${at}.kb`, 'must not be empty');
      const quote = e.quote === undefined ? null : requireString(e.quote, `${at}.quote`, fail);
      if (quote !== null && normalizeForQuote(quote) === '')
        fail(
          `${at}.quote`,
          'must not be empty',
          'quote a passage of the expected document, or drop `quote:`',
        );
      return {
        path: entryPath,
        heading,
        ...(kb === null ? {} : { kb }),
        ...(quote === null ? {} : { quote }),
      };
    });
    let tags: string[] = [];
    if (q.tags !== undefined && q.tags !== null) {
      if (!Array.isArray(q.tags)) return fail(`${where}.tags`, 'expected a list of strings');
      tags = q.tags.map((t: unknown, j: number) => requireString(t, `${where}.tags[${j}]`, fail));
    }
    return { id, query, expected, tags };
  });
}

/**
 * Refuse (a usage error: the file is valid, the KBs named do not fit it) a `kb:` the run cannot match: in a one-KB eval (`kbs` null) every `kb:` is refused, in a cross-KB eval
 * one naming a KB not measured — it could never be found, so it would read as a retrieval miss.
 */
export function checkGoldenKbs(golden: GoldenSet, kbs: readonly string[] | null): void {
  golden.queries.forEach((q, i) => {
    q.expected.forEach((entry, j) => {
      if (entry.kb === undefined || kbs?.includes(entry.kb)) return;
      const at = `queries[${i}].expected[${j}].kb`;
      const reason = kbs
        ? `"${entry.kb}" is not one of the knowledge bases measured (${kbs.join(', ')})`
        : '`kb` needs an eval across several knowledge bases';
      throw new GrooveError('INVALID_ARGUMENT', `golden file "${golden.path}": ${at}: ${reason}`, {
        hint: kbs
          ? `add --kb ${entry.kb}, or fix the name`
          : 'run `groove eval --kb NAME --kb NAME …`, or drop `kb:`',
      });
    });
  });
}

function requireString(
  value: unknown,
  where: string,
  fail: (where: string, reason: string) => never,
): string {
  if (value === undefined)
    return fail(where.replace(/\.[a-z]+$/, ''), `missing field \`${where.split('.').pop()}\``);
  if (typeof value !== 'string')
    return fail(where, `invalid type: ${describeType(value)}, expected a string`);
  return value;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'sequence';
  if (typeof value === 'object') return 'map';
  return `${typeof value} ${JSON.stringify(value)}`;
}
