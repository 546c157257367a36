// Options shared by commands, and the mapping from parsed flags to config overrides.
import { type Command, Option } from 'commander';
import { type ResolvedConfig, resolveConfig } from '../config/resolve-config.js';
import type { CliIo } from './cli-io.js';

export interface CommonFlags {
  config?: string;
  kbPath?: string;
  dbPath?: string;
  model?: string;
  modelDir?: string;
  reranker?: string;
  offline?: boolean;
  format?: 'text' | 'json';
}

export function addKbOptions(command: Command): Command {
  return command
    .option('--config <path>', 'groove.toml to use (default: ./groove.toml, then the git root)')
    .option('--kb-path <dir>', 'knowledge-base folder (or kb_path in groove.toml)')
    .option('--db-path <file>', 'index file (default: <parent of kb>/.groove.db)');
}

export function addModelOptions(command: Command): Command {
  return command
    .option('--model <id>', 'embedding model id from `groove models list`, or `none` for lexical-only')
    .option(
      '--model-dir <dir>',
      'local transformers.js model folder (config.json, tokenizer, onnx/model.onnx)',
    )
    .option('--offline', 'never touch the network (also GROOVE_OFFLINE=1)');
}

export function addFormatOption(command: Command, defaultFormat: 'text' | 'json' = 'text'): Command {
  return command.addOption(
    new Option('--format <format>', 'output format').choices(['text', 'json']).default(defaultFormat),
  );
}

export function loadConfig(flags: CommonFlags, io: CliIo): ResolvedConfig {
  return resolveConfig({
    configPath: flags.config,
    cwd: io.cwd,
    env: io.env,
    overrides: {
      kbPath: flags.kbPath,
      dbPath: flags.dbPath,
      model: flags.model,
      modelDir: flags.modelDir,
      reranker: flags.reranker,
      offline: flags.offline,
    },
  });
}
