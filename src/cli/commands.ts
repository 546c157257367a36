// Every groove command as data: arguments, options, help text, and the module that runs it (imported only when
// the command runs). The measuring commands (eval, tune) are in commands-measure.ts.
import type { CommandSpec, OptionSpec } from './command-spec.js';
import { KB_COMMAND } from './commands-kb.js';
import { EVAL_COMMAND, TUNE_COMMAND } from './commands-measure.js';
import { collect, parseBoundedInt, parseUnit } from './flag-parsers.js';
import { CONFIG_OPTION, formatOption, KB_OPTIONS, MODEL_OPTIONS, SERVER_OPTION } from './option-groups.js';
import { searchArgument, searchParamOptions } from './search-options.js';

const INDEX_COMMAND: CommandSpec = {
  name: 'index',
  description: 'index a knowledge base into one SQLite file (incremental; --force rebuilds)',
  options: [
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
  ],
  help: '\nExamples:\n  groove index --kb-path ./notes\n  groove index --kb-path ./notes --model none\n  groove index --kb-path ./notes --force --format json',
  load: () => import('./cmd-index.js'),
};

const SEARCH_COMMAND: CommandSpec = {
  name: 'search',
  description: 'hybrid search of an indexed KB (word-level BM25 + vectors, fused by RRF)',
  argument: searchArgument(),
  options: [
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
  ],
  help: '\nExamples:\n  groove search "reset password" --kb-path ./notes --format text\n  groove search "backup -postgres" --kb-path ./notes --limit 10\n  groove search "売上" --kb-path ./notes --tag-any 財務 --explain',
  load: () => import('./cmd-search.js'),
};

const STATUS_COMMAND: CommandSpec = {
  name: 'status',
  description: 'show documents, chunks, model, context mode, index size and last index time',
  options: [...KB_OPTIONS, formatOption(), SERVER_OPTION],
  help: '\nExamples:\n  groove status --kb-path ./notes\n  groove status --kb-path ./notes --format json',
  load: () => import('./cmd-status.js'),
};

const DOCTOR_COMMAND: CommandSpec = {
  name: 'doctor',
  description:
    'check the index for damaged or missing rows and for what keeps it from being served (read-only)',
  options: [...KB_OPTIONS, formatOption()],
  help: '\nExit codes: 0 no findings, 1 findings (warnings included), 2 doctor cannot run (no index, not an index).\n\nExamples:\n  groove doctor --kb-path ./notes\n  groove doctor --kb-path ./notes --format json',
  load: () => import('./cmd-doctor.js'),
};

const SERVE_COMMAND: CommandSpec = {
  name: 'serve',
  description: 'serve the KB to MCP clients over stdio (default) or Streamable HTTP, following file changes',
  options: [
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
  ],
  help: '\nExamples:\n  groove serve --kb-path ./notes\n  groove serve --kb-path ./notes --transport http --port 3100\n  GROOVE_HTTP_TOKEN=secret groove serve --transport http --bind 0.0.0.0 --allow-remote',
  load: () => import('./cmd-serve.js'),
};

const GRAPH_COMMAND: CommandSpec = {
  name: 'graph',
  description:
    'notes related to one document, by vector similarity and the links written in the notes (the MCP tool get_connection_graph)',
  argument: {
    syntax: '<start>',
    description:
      'the document to start from: its path as search returns it, or a note name (Embed files, [[Embed files]])',
  },
  options: [
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
      parse: collect as OptionSpec['parse'],
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
  ],
  help: '\nExamples:\n  groove graph ops/backup.md --kb-path ./notes --format text\n  groove graph ops/backup.md --kb-path ./notes --depth 3 --format dot | dot -Tsvg > related.svg\n  groove graph ops/backup.md --kb-path ./notes --format mermaid',
  load: () => import('./cmd-graph.js'),
};

const VALIDATE_COMMAND: CommandSpec = {
  name: 'validate',
  description: 'check the frontmatter of every note against <kb>/groove-schema.toml (no index needed)',
  options: [
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
  ],
  help: '\nExit codes: 0 no violations (or no schema at the default path), 1 violations, 2 the schema or the KB cannot be used.\n\nExamples:\n  groove validate --kb-path ./notes\n  groove validate --kb-path ./notes --strict --format github\n  groove validate --kb-path ./notes --schema ci/notes-schema.toml --format json',
  load: () => import('./cmd-validate.js'),
};

const SERVICE_NAME_OPTION: OptionSpec = {
  flags: '--service-name <name>',
  description: 'which service (letters, digits, . _ -)',
  default: 'groove',
};

const SERVICE_COMMAND: CommandSpec = {
  name: 'service',
  description:
    'keep `groove serve --transport http` running as a user service (systemd on Linux, launchd on macOS)',
  subcommands: [
    {
      name: 'install',
      description: 'write the service file and start the service',
      options: [
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
      ],
      help: '\nExamples:\n  groove service install --kb-path ~/notes --dry-run\n  groove service install --kb-path ~/notes --port 3200 --service-name notes',
      load: () => import('./cmd-service.js').then((m) => ({ run: m.runInstall })),
    },
    {
      name: 'uninstall',
      description: 'stop the service and remove its file (the index and notes are kept)',
      options: [SERVICE_NAME_OPTION, { flags: '--no-stop', description: 'only remove the file' }],
      load: () => import('./cmd-service.js').then((m) => ({ run: m.runUninstall })),
    },
    {
      name: 'status',
      description: 'whether the service is installed, and what the service manager says of it',
      options: [
        SERVICE_NAME_OPTION,
        { flags: '--no-ask', description: 'do not ask the service manager (file check only)' },
        formatOption(),
      ],
      load: () => import('./cmd-service.js').then((m) => ({ run: m.runStatus })),
    },
  ],
};

const MODELS_COMMAND: CommandSpec = {
  name: 'models',
  description: 'list registered embedding models and rerankers, or download one',
  subcommands: [
    {
      name: 'list',
      description: 'id, kind, dimension, languages, download size and whether it is in the cache',
      options: [CONFIG_OPTION, formatOption()],
      load: () => import('./cmd-models-list.js'),
    },
    {
      name: 'pull',
      description:
        'download a registered model into the cache (GROOVE_MODEL_DIR / model_dir; HF_ENDPOINT mirrors)',
      argument: { syntax: '<id>', description: 'model id from `groove models list`' },
      options: [CONFIG_OPTION],
      load: () => import('./cmd-models-pull.js'),
    },
  ],
};

/** The commands in the order `groove --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  KB_COMMAND,
  INDEX_COMMAND,
  SEARCH_COMMAND,
  STATUS_COMMAND,
  DOCTOR_COMMAND,
  SERVE_COMMAND,
  GRAPH_COMMAND,
  VALIDATE_COMMAND,
  EVAL_COMMAND,
  TUNE_COMMAND,
  MODELS_COMMAND,
  SERVICE_COMMAND,
];
