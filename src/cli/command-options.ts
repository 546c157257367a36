// The options of the commands that read or serve one KB (index, search, status, doctor, serve, graph,
// validate), of `groove models`, `groove service` and `groove kb` as data, and the flags each command's module receives, typed from that data (see FlagsOf).
import type { FlagsOf, OptionSpec } from './command-spec.js';
import { collect, parseBoundedInt, parseUnit } from './flag-parsers.js';
import { CONFIG_OPTION, formatOption, KB_OPTIONS, MODEL_OPTIONS, SERVER_OPTION } from './option-groups.js';
import { searchParamOptions } from './search-options.js';

export const INDEX_OPTIONS = [
  {
    flags: '--force',
    description: 'rebuild from scratch (needed after changing model, dimension or context mode)',
  },
  { flags: '--quiet', description: 'print only the summary' },
  {
    flags: '--verbose',
    description:
      'a line for every file and every warning (by default the first 20 files and 100 warnings, then a count)',
  },
  { flags: '--progress', description: 'show a progress bar on a TTY, or ~20 progress lines otherwise' },
  ...KB_OPTIONS,
  ...MODEL_OPTIONS,
  formatOption(),
] as const satisfies readonly OptionSpec[];

export const SEARCH_OPTIONS = [
  ...searchParamOptions(),
  {
    flags: '--reranker <id>',
    description: 'cross-encoder to rerank with (bge-reranker-base, bge-reranker-v2-m3) or none',
  },
  formatOption('json'),
  {
    flags: '--full',
    description: "with --format text, print each hit's whole text instead of a few lines around the match",
  },
  ...KB_OPTIONS,
  ...MODEL_OPTIONS,
  SERVER_OPTION,
] as const satisfies readonly OptionSpec[];

export const STATUS_OPTIONS = [
  ...KB_OPTIONS,
  formatOption(),
  SERVER_OPTION,
] as const satisfies readonly OptionSpec[];

export const DOCTOR_OPTIONS = [...KB_OPTIONS, formatOption()] as const satisfies readonly OptionSpec[];

export const SERVE_OPTIONS = [
  {
    flags: '--transport <kind>',
    description: 'stdio (one client) or http (many)',
    choices: ['stdio', 'http'],
  },
  {
    flags: '--port <n>',
    description: 'HTTP port (default 3100; 0 picks a free one)',
    parse: parseBoundedInt('serve', '--port', 65_535, 0),
  },
  { flags: '--bind <addr>', description: 'HTTP bind address (default 127.0.0.1)' },
  {
    flags: '--allow-remote',
    description: 'allow a non-loopback --bind (then also set a token and allowed_hosts)',
  },
  {
    flags: '--no-watch',
    description: 'do not follow file changes (rebuild_index still updates the index)',
  },
  {
    flags: '--debounce-ms <n>',
    description: 'quiet time before changes are indexed (default 500)',
    parse: parseBoundedInt('serve', '--debounce-ms', 60_000, 0),
  },
  ...KB_OPTIONS,
  ...MODEL_OPTIONS,
] as const satisfies readonly OptionSpec[];

export const GRAPH_OPTIONS = [
  {
    flags: '--depth <n>',
    description: 'hops from the start document (1-3, default 2)',
    parse: parseBoundedInt('graph', '--depth', 3),
  },
  {
    flags: '--fan-out <n>',
    description: 'neighbours kept per node (1-20, default 5)',
    parse: parseBoundedInt('graph', '--fan-out', 20),
  },
  {
    flags: '--min-similarity <0..1>',
    description: 'cosine similarity a neighbour needs (default 0.5)',
    parse: parseUnit('graph', '--min-similarity'),
  },
  {
    flags: '--max-nodes <n>',
    description:
      'node budget for the whole graph, and most link edges from and to the start (1-500, default 50)',
    parse: parseBoundedInt('graph', '--max-nodes', 500),
  },
  { flags: '--no-dedup-by-path', description: 'allow several nodes of one document' },
  {
    flags: '--exclude-path <path>',
    description: 'never include this document (a folder with a trailing /); repeatable',
    parse: collect,
  },
  {
    flags: '--seed-strategy <kind>',
    description:
      "all_chunks: each of the start document's first chunks seeds the walk; centroid: their average",
    choices: ['all_chunks', 'centroid'],
  },
  {
    flags: '--max-seed-chunks <n>',
    description: "how many of the start document's chunks seed the walk (1-64, default 8)",
    parse: parseBoundedInt('graph', '--max-seed-chunks', 64),
  },
  { flags: '--category <name>', description: 'only neighbours in this category (first folder)' },
  { flags: '--topic <name>', description: 'only neighbours with this topic' },
  {
    flags: '--format <format>',
    description: "output format (json is the MCP tool's answer)",
    choices: ['json', 'text', 'dot', 'mermaid'],
    default: 'json',
  },
  ...KB_OPTIONS,
  ...MODEL_OPTIONS,
] as const satisfies readonly OptionSpec[];

export const VALIDATE_OPTIONS = [
  { flags: '--schema <file>', description: 'schema to use (default: <kb>/groove-schema.toml)' },
  {
    flags: '--strict',
    description: 'report frontmatter keys the schema does not declare',
  },
  {
    flags: '--format <format>',
    description: 'output format (github: ::error annotations for GitHub Actions)',
    choices: ['text', 'json', 'github'],
    default: 'text',
  },
  ...KB_OPTIONS,
] as const satisfies readonly OptionSpec[];

export const MODELS_LIST_OPTIONS = [CONFIG_OPTION, formatOption()] as const satisfies readonly OptionSpec[];
export const MODELS_PULL_OPTIONS = [CONFIG_OPTION] as const satisfies readonly OptionSpec[];

const SERVICE_NAME_OPTION = {
  flags: '--service-name <name>',
  description: 'which service (letters, digits, . _ -)',
  default: 'groove',
} as const satisfies OptionSpec;

export const SERVICE_INSTALL_OPTIONS = [
  SERVICE_NAME_OPTION,
  { flags: '--kb-path <dir>', description: 'the knowledge base the service serves' },
  {
    flags: '--db-path <file>',
    description: "index file (default: the KB's folder in groove's data folder)",
  },
  { flags: '--config <path>', description: 'groove.toml the service reads' },
  { flags: '--bind <addr>', description: 'HTTP bind address', default: '127.0.0.1' },
  {
    flags: '--port <n>',
    description: 'HTTP port',
    parse: parseBoundedInt('service', '--port', 65_535),
    default: 3100,
  },
  {
    flags: '--allow-remote',
    description: 'allow a non-loopback --bind (set a token and allowed_hosts too)',
  },
  { flags: '--force', description: 'replace an installed service of this name' },
  {
    flags: '--no-start',
    description: 'write the file only; do not ask the service manager to start it',
  },
  { flags: '--dry-run', description: 'print the service file and where it would go; change nothing' },
] as const satisfies readonly OptionSpec[];

export const SERVICE_UNINSTALL_OPTIONS = [
  SERVICE_NAME_OPTION,
  { flags: '--no-stop', description: 'only remove the file' },
] as const satisfies readonly OptionSpec[];

export const SERVICE_STATUS_OPTIONS = [
  SERVICE_NAME_OPTION,
  { flags: '--no-ask', description: 'do not ask the service manager (file check only)' },
  formatOption(),
] as const satisfies readonly OptionSpec[];

export const KB_ADD_OPTIONS = [
  { flags: '--config <file>', description: 'a groove.toml whose settings this KB always uses' },
  { flags: '--model <id>', description: 'embedding model id, or `none` for lexical-only' },
  {
    flags: '--parsers <list>',
    description: 'comma-separated parsers to enable (md, txt, pdf, docx, xlsx, pptx, code)',
  },
] as const satisfies readonly OptionSpec[];

export const KB_LIST_OPTIONS = [formatOption()] as const satisfies readonly OptionSpec[];

export const KB_SHOW_OPTIONS = [formatOption()] as const satisfies readonly OptionSpec[];

export const KB_REMOVE_OPTIONS = [
  { flags: '--delete-index', description: "also delete the KB's index file" },
] as const satisfies readonly OptionSpec[];

export type IndexFlags = FlagsOf<typeof INDEX_OPTIONS>;
/** The fixed options' flags; the search parameters' flags are generated from their table, so they are looked up by name. */
export type SearchFlags = FlagsOf<typeof SEARCH_OPTIONS> & Record<string, unknown>;
export type StatusFlags = FlagsOf<typeof STATUS_OPTIONS>;
export type DoctorFlags = FlagsOf<typeof DOCTOR_OPTIONS>;
export type ServeFlags = FlagsOf<typeof SERVE_OPTIONS>;
export type GraphFlags = FlagsOf<typeof GRAPH_OPTIONS>;
export type ValidateFlags = FlagsOf<typeof VALIDATE_OPTIONS>;
export type ModelsListFlags = FlagsOf<typeof MODELS_LIST_OPTIONS>;
export type ModelsPullFlags = FlagsOf<typeof MODELS_PULL_OPTIONS>;
export type ServiceInstallFlags = FlagsOf<typeof SERVICE_INSTALL_OPTIONS>;
export type ServiceUninstallFlags = FlagsOf<typeof SERVICE_UNINSTALL_OPTIONS>;
export type ServiceStatusFlags = FlagsOf<typeof SERVICE_STATUS_OPTIONS>;
export type KbAddFlags = FlagsOf<typeof KB_ADD_OPTIONS>;
export type KbListFlags = FlagsOf<typeof KB_LIST_OPTIONS>;
export type KbShowFlags = FlagsOf<typeof KB_SHOW_OPTIONS>;
export type KbRemoveFlags = FlagsOf<typeof KB_REMOVE_OPTIONS>;
