// Every groove command as data: arguments, options, help text, and the module that runs it (imported only when
// the command runs). The measuring commands (eval, tune) are in commands-measure.ts.

import {
  DOCTOR_OPTIONS,
  GRAPH_OPTIONS,
  INDEX_OPTIONS,
  MODELS_LIST_OPTIONS,
  MODELS_PULL_OPTIONS,
  SEARCH_OPTIONS,
  SERVE_OPTIONS,
  SERVICE_INSTALL_OPTIONS,
  SERVICE_STATUS_OPTIONS,
  SERVICE_UNINSTALL_OPTIONS,
  STATUS_OPTIONS,
  VALIDATE_OPTIONS,
} from './command-options.js';
import type { CommandSpec } from './command-spec.js';
import { KB_COMMAND } from './commands-kb.js';
import { EVAL_COMMAND, TUNE_COMMAND } from './commands-measure.js';
import { searchArgument } from './search-options.js';

const INDEX_COMMAND: CommandSpec = {
  name: 'index',
  description: 'index a knowledge base into one SQLite file (incremental; --force rebuilds)',
  options: INDEX_OPTIONS,
  help: '\nExamples:\n  groove index --kb-path ./notes\n  groove index --kb-path ./notes --model none\n  groove index --kb-path ./notes --force --format json',
  load: () => import('./cmd-index.js'),
};

const SEARCH_COMMAND: CommandSpec = {
  name: 'search',
  description: 'hybrid search of an indexed KB (word-level BM25 + vectors, fused by RRF)',
  argument: searchArgument(),
  options: SEARCH_OPTIONS,
  help: '\nExamples:\n  groove search "reset password" --kb-path ./notes --format text\n  groove search "backup -postgres" --kb-path ./notes --limit 10\n  groove search "売上" --kb-path ./notes --tag-any 財務 --explain',
  load: () => import('./cmd-search.js'),
};

const STATUS_COMMAND: CommandSpec = {
  name: 'status',
  description: 'show documents, chunks, model, context mode, index size and last index time',
  options: STATUS_OPTIONS,
  help: '\nExamples:\n  groove status --kb-path ./notes\n  groove status --kb-path ./notes --format json',
  load: () => import('./cmd-status.js'),
};

const DOCTOR_COMMAND: CommandSpec = {
  name: 'doctor',
  description:
    'check the index for damaged or missing rows and for what keeps it from being served (read-only)',
  options: DOCTOR_OPTIONS,
  help: '\nExit codes: 0 no findings, 1 findings (warnings included), 2 doctor cannot run (no index, not an index).\n\nExamples:\n  groove doctor --kb-path ./notes\n  groove doctor --kb-path ./notes --format json',
  load: () => import('./cmd-doctor.js'),
};

const SERVE_COMMAND: CommandSpec = {
  name: 'serve',
  description: 'serve the KB to MCP clients over stdio (default) or Streamable HTTP, following file changes',
  options: SERVE_OPTIONS,
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
  options: GRAPH_OPTIONS,
  help: '\nExamples:\n  groove graph ops/backup.md --kb-path ./notes --format text\n  groove graph ops/backup.md --kb-path ./notes --depth 3 --format dot | dot -Tsvg > related.svg\n  groove graph ops/backup.md --kb-path ./notes --format mermaid',
  load: () => import('./cmd-graph.js'),
};

const VALIDATE_COMMAND: CommandSpec = {
  name: 'validate',
  description: 'check the frontmatter of every note against <kb>/groove-schema.toml (no index needed)',
  options: VALIDATE_OPTIONS,
  help: '\nExit codes: 0 no violations (or no schema at the default path), 1 violations, 2 the schema or the KB cannot be used.\n\nExamples:\n  groove validate --kb-path ./notes\n  groove validate --kb-path ./notes --strict --format github\n  groove validate --kb-path ./notes --schema ci/notes-schema.toml --format json',
  load: () => import('./cmd-validate.js'),
};

const SERVICE_COMMAND: CommandSpec = {
  name: 'service',
  description:
    'keep `groove serve --transport http` running as a user service (systemd on Linux, launchd on macOS)',
  subcommands: [
    {
      name: 'install',
      description: 'write the service file and start the service',
      options: SERVICE_INSTALL_OPTIONS,
      help: '\nExamples:\n  groove service install --kb-path ~/notes --dry-run\n  groove service install --kb-path ~/notes --port 3200 --service-name notes',
      load: () => import('./cmd-service.js').then((m) => ({ run: m.runInstall })),
    },
    {
      name: 'uninstall',
      description: 'stop the service and remove its file (the index and notes are kept)',
      options: SERVICE_UNINSTALL_OPTIONS,
      load: () => import('./cmd-service.js').then((m) => ({ run: m.runUninstall })),
    },
    {
      name: 'status',
      description: 'whether the service is installed, and what the service manager says of it',
      options: SERVICE_STATUS_OPTIONS,
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
      options: MODELS_LIST_OPTIONS,
      load: () => import('./cmd-models-list.js'),
    },
    {
      name: 'pull',
      description:
        'download a registered model into the cache (GROOVE_MODEL_DIR / model_dir; HF_ENDPOINT mirrors)',
      argument: { syntax: '<id>', description: 'model id from `groove models list`' },
      options: MODELS_PULL_OPTIONS,
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
