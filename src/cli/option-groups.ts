// Options several commands share, as data (see command-spec.ts).
import type { OptionSpec } from './command-spec.js';
import { collect } from './flag-parsers.js';

/**
 * `--kb NAME`: a KB of the registry (`groove kb list`); repeatable: search and status take several, the other
 * commands refuse a second one with a clear error.
 */
export const KB_NAME_OPTION = {
  flags: '--kb <name>',
  description:
    'registered knowledge base (`groove kb list`): its folder and settings, from any folder (search, status: repeat to name several)',
  parse: collect,
} as const satisfies OptionSpec;

export const KB_OPTIONS = [
  KB_NAME_OPTION,
  { flags: '--config <path>', description: 'groove.toml to use (default: ./groove.toml, then the git root)' },
  { flags: '--kb-path <dir>', description: 'knowledge-base folder (or kb_path in groove.toml)' },
  { flags: '--db-path <file>', description: "index file (default: the KB's folder in groove's data folder)" },
] as const satisfies readonly OptionSpec[];

export const MODEL_OPTIONS = [
  {
    flags: '--model <id>',
    description: 'embedding model id from `groove models list`, or `none` for lexical-only',
  },
  {
    flags: '--model-dir <dir>',
    description: 'local transformers.js model folder (config.json, tokenizer, onnx/model.onnx)',
  },
  {
    flags: '--pooling <mode>',
    description:
      '--model-dir: how token vectors become one vector, for a folder that does not say (or to override it)',
    choices: ['mean', 'cls'],
  },
  {
    flags: '--query-prefix <text>',
    description:
      '--model-dir or an endpoint: text put before each query ("" for none); default: the folder\'s',
  },
  {
    flags: '--passage-prefix <text>',
    description: '--model-dir or an endpoint: text put before each indexed passage ("" for none)',
  },
  { flags: '--offline', description: 'never touch the network (also GROOVE_OFFLINE=1, HF_HUB_OFFLINE=1)' },
] as const satisfies readonly OptionSpec[];

export function formatOption(defaultFormat: 'text' | 'json' = 'text') {
  return {
    flags: '--format <format>',
    description: 'output format',
    choices: ['text', 'json'],
    default: defaultFormat,
  } as const satisfies OptionSpec;
}

export const CONFIG_OPTION = {
  flags: '--config <path>',
  description: 'groove.toml to use',
} as const satisfies OptionSpec;
export const NO_COLOR_OPTION = {
  flags: '--no-color',
  description: 'no ANSI colours (they are only used on a terminal anyway)',
} as const satisfies OptionSpec;
export const GOLDEN_OPTION = {
  flags: '--golden <path>',
  description:
    "golden YAML (default: [eval] golden, then <kb>/.groove-eval.yml, then the set golden build/import wrote in groove's data folder)",
} as const satisfies OptionSpec;

/** `--no-server`: answer in-process even when a `groove serve` for the index is running (see local-server.ts). */
export const SERVER_OPTION = {
  flags: '--no-server',
  description: 'answer in-process, not through a running `groove serve` (also GROOVE_NO_SERVER=1)',
} as const satisfies OptionSpec;
