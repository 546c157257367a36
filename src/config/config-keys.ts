// Every groove.toml key, declared once, in the order the file's sections are checked: the schema (schema.ts),
// DEFAULTS (defaults.ts), the file → settings mapping (config-file-settings.ts) and the configuration
// reference in docs/configuration.md (`npx tsx scripts/gen-config-doc.ts`) are generated from this table.
import { CODE_LANGUAGE_IDS, DEFAULT_CODE_LANGUAGES, PARSER_IDS } from '../document/document-formats.js';
import { GrooveError } from '../errors.js';
import { MIB, parseByteSize } from './byte-size.js';
import { derived, fraction, key, nonEmpty, nonEmptyList, searchParameter } from './config-key.js';
import { expandPath } from './expand-path.js';
import { SEARCH_KEYS } from './search-config-keys.js';

const DEFAULT_EXCLUDE_DIRS = ['.obsidian', '.git', 'node_modules', 'target', '.vscode', '.idea'] as const;

const EXTRACTION_MEMORY_FLOOR = 128 * MIB;

/** `[parsers] max_memory`: below 128 MiB the extraction process could not even load its parsers. */
function extractionMemory(value: number | string): number {
  const bytes = parseByteSize(value);
  if (bytes < EXTRACTION_MEMORY_FLOOR) {
    throw new GrooveError('CONFIG_INVALID', `[parsers] max_memory "${value}" is under 128MiB`, {
      hint: 'the extraction process needs at least "128MiB"; the default is "768MiB"',
    });
  }
  return bytes;
}

/** A list as the settings keep it: each entry once, in first-seen order. */
const unique = (values: string[]) => [...new Set(values)];

export const CONFIG_KEYS = [
  key('kb_path', { ...nonEmpty, read: expandPath }, 'the knowledge-base folder (`--kb-path` wins)'),
  key(
    'db_path',
    {
      ...nonEmpty,
      read: expandPath,
      docDefault: "the KB's own folder (see [Folders](#folders))",
    },
    'the index file (`--db-path` wins)',
  ),
  key(
    'model',
    { ...nonEmpty, default: 'multilingual-e5-small' },
    'embedding model id, or `none` for lexical-only (`--model` wins)',
  ),
  key(
    'model_dir',
    { ...nonEmpty, setting: 'modelCacheDir', read: expandPath, docDefault: 'user cache' },
    'where downloaded models live; `GROOVE_MODEL_DIR` wins',
  ),
  key('reranker', { ...nonEmpty, default: 'none' }, 'cross-encoder id, or `none`'),
  key(
    'rerank_by_default',
    { type: 'boolean', default: true },
    `rerank every search when a reranker is set: ${searchParameter('rerank')}`,
  ),
  key(
    'reranker_max_batch_tokens',
    { type: 'integer', min: 1, max: 1_048_576, default: 4096 },
    'padded tokens per reranker batch (pairs × longest pair, at most 16 pairs); long pairs go in smaller ' +
      'batches so attention memory stays bounded, a single pair longer than this still runs alone',
  ),
  key(
    'offline',
    { type: 'boolean', default: false },
    'never touch the network (`--offline`, `GROOVE_OFFLINE=1`, `HF_HUB_OFFLINE=1`, `TRANSFORMERS_OFFLINE=1`)',
  ),
  key(
    'exclude_dirs',
    { ...nonEmptyList(256), default: [...DEFAULT_EXCLUDE_DIRS] as string[] },
    'folder basenames, case-insensitive; a list replaces the default; `.git .svn node_modules` are always skipped',
  ),
  key(
    'exclude_headings',
    { ...nonEmptyList(256), default: [] as string[] },
    'sections whose heading contains one of these substrings are dropped (the note links written in them still count)',
  ),
  key(
    'index.max_file_size',
    { type: 'size', setting: 'index.maxFileBytes', read: parseByteSize, default: 50 * MIB },
    'files larger than this are skipped with a warning',
  ),
  key(
    'index.fail_on_frontmatter_error',
    { type: 'boolean', default: false },
    'exit 1 after a run with unparsable frontmatter',
  ),
  key(
    'chunking.max_heading_level',
    { type: 'integer', min: 1, max: 6, default: 3 },
    'headings up to this level start a chunk',
  ),
  key(
    'chunking.max_chunk_bytes',
    { type: 'integer', min: 256, max: 1_048_576, default: 4000 },
    'sections longer than this many UTF-8 bytes split at paragraphs',
  ),
  key(
    'chunking.min_chunk_bytes',
    { type: 'integer', min: 0, max: 4096, default: 50 },
    'shorter sections merge into a neighbour',
  ),
  key(
    'parsers.enabled',
    {
      type: 'list',
      min: 1,
      entry: { type: 'choice', values: PARSER_IDS },
      read: unique,
      default: ['md'] as string[],
    },
    'the parsers in use (see [Parsers](#parsers)); unknown ids are rejected; only Markdown files have note ' +
      'links, and a link whose target has another extension (`.png`, `.pdf`) is an attachment, never dangling',
  ),
  key(
    'parsers.timeout_seconds',
    { type: 'integer', min: 1, max: 3600, default: 30 },
    "wall-clock seconds one file's extraction may take; the extraction process is stopped then and the file skipped",
  ),
  key(
    'parsers.max_decompressed_size',
    { type: 'size', setting: 'parsers.maxDecompressedBytes', read: parseByteSize, default: 200 * MIB },
    'bytes one DOCX/XLSX/PPTX archive may inflate to; past it the file is refused as a zip bomb. Also the ' +
      "bytes of temp files one file's extraction may write (exceljs writes a sheet it cannot read yet to a temp " +
      'file); past it the file is stopped. Temp files are removed after each file, and whenever a file is stopped',
  ),
  key(
    'parsers.max_memory',
    { type: 'size', setting: 'parsers.maxMemoryBytes', read: extractionMemory, default: 768 * MIB },
    'at least `"128MiB"`: resident memory (RSS: JavaScript heap, native and WebAssembly memory together) the ' +
      'extraction process may reach while extracting one file; past it the process is stopped and the file ' +
      'skipped. It is sampled every 10 ms, so the process can pass it by what a parser allocates in that time. ' +
      "The main groove process holds only the file's bytes and its extracted text",
  ),
  key(
    'parsers.max_pages',
    { type: 'integer', min: 1, max: 100_000, default: 2000 },
    'PDF pages read per file',
  ),
  key(
    'parsers.max_sheets',
    { type: 'integer', min: 1, max: 10_000, default: 100 },
    'workbook sheets read per file',
  ),
  key(
    'parsers.max_cells_per_sheet',
    { type: 'integer', min: 1, max: 10_000_000, default: 200_000 },
    'non-empty cells read per sheet; the rest of the sheet is left out',
  ),
  key('parsers.max_slides', { type: 'integer', min: 1, max: 100_000, default: 1000 }, 'slides read per file'),
  key(
    'parsers.max_text_chars',
    { type: 'integer', min: 1000, max: 100_000_000, default: 5_000_000 },
    'characters of extracted text kept per file',
  ),
  key(
    'parsers.code.languages',
    {
      type: 'list',
      min: 1,
      entry: { type: 'choice', values: CODE_LANGUAGE_IDS },
      setting: 'parsers.codeLanguages',
      read: unique,
      default: [...DEFAULT_CODE_LANGUAGES] as string[],
    },
    'the languages the `code` parser claims (see [Parsers](#parsers))',
  ),
  derived(
    'parsers.extensions',
    { type: 'list', entry: nonEmpty, default: ['md'] as string[] },
    'the extensions the enabled parsers claim',
  ),
  key(
    'best_practice.path_templates',
    {
      type: 'list',
      max: 16,
      entry: {
        type: 'string',
        min: 1,
        max: 512,
        contains: { text: '{target}', message: 'each template must contain {target}' },
      },
      default: [] as string[],
      docDefault: '`[]` (not configured)',
    },
    'KB-relative paths, each containing `{target}`, tried in order by the MCP tool `get_best_practice` ' +
      '(offered to agents only when this is set), e.g. `["best-practices/{target}/PERFECT.md"]`',
  ),
  key('quality_filter.enabled', { type: 'boolean', default: true }, 'hide chunks under the threshold'),
  key(
    'quality_filter.threshold',
    { ...fraction, default: 0.3 },
    `chunks scoring below this are hidden: ${searchParameter('min_quality')}`,
  ),
  key('watch.enabled', { type: 'boolean', default: true }, 'live sync in `serve`'),
  key('watch.debounce_ms', { type: 'integer', min: 0, max: 60_000, default: 500 }, 'live sync delay, in ms'),
  key('transport.kind', { type: 'choice', values: ['stdio', 'http'], default: 'stdio' }, 'how `serve` talks'),
  key('transport.http.bind', { ...nonEmpty, default: '127.0.0.1' }, 'listen address'),
  key('transport.http.port', { type: 'integer', min: 0, max: 65535, default: 3100 }, 'listen port'),
  key(
    'transport.http.allowed_hosts',
    { ...nonEmptyList(64), default: [] as string[] },
    'extra Host values accepted',
  ),
  key(
    'transport.http.allowed_origins',
    { ...nonEmptyList(64), default: [] as string[] },
    'extra Origin values accepted',
  ),
  key(
    'transport.http.max_sessions',
    { type: 'integer', min: 1, max: 10_000, default: 256 },
    'open MCP sessions',
  ),
  key(
    'transport.http.token',
    { ...nonEmpty, default: null },
    "bearer token for `/mcp` and the status page's `/api/*`; `GROOVE_HTTP_TOKEN` wins",
  ),
  key('transport.http.healthz_public', { type: 'boolean', default: true }, '`/healthz` without the token'),
  key(
    'storage.backend',
    { type: 'choice', values: ['sqlite', 'postgres'], default: 'sqlite' },
    '`"sqlite"`: the index is one file (`db_path`); `"postgres"`: a shared PostgreSQL database (`url`), see ' +
      '[Storage](#storage-sqlite-or-postgresql); `db_path` is then unused',
  ),
  key(
    'storage.url',
    {
      type: 'string',
      pattern: {
        regex: /^postgres(ql)?:\/\/\S+$/,
        message: 'must be a URL like "postgres://user@host:5432/groove"',
      },
      default: null,
    },
    '`postgres://user:password@host:5432/database`; `GROOVE_DATABASE_URL` wins; shown only with the password ' +
      'masked (`***`)',
  ),
  key(
    'storage.kb',
    {
      type: 'string',
      pattern: { regex: /^[a-z0-9_-]{1,63}$/, message: 'must be 1 to 63 of a-z, 0-9, "_" and "-"' },
      default: 'default',
    },
    "this KB's name in the shared database (several KBs share one)",
  ),
  ...SEARCH_KEYS,
] as const;
