// The flags every command may carry, and their mapping to config overrides (the options are in option-groups.ts).
import { withDefaultIndexPath } from '../app/index.js';
import { type ResolvedConfig, resolveConfig } from '../config/resolve-config.js';
import type { CliIo } from './cli-io.js';

export interface CommonFlags {
  config?: string;
  kbPath?: string;
  dbPath?: string;
  model?: string;
  modelDir?: string;
  pooling?: 'mean' | 'cls';
  queryPrefix?: string;
  passagePrefix?: string;
  reranker?: string;
  offline?: boolean;
  format?: 'text' | 'json';
}

/** The config a command runs with, its index path filled in (groove's own folder for the KB) where none is named. */
export function loadConfig(flags: CommonFlags, io: CliIo): ResolvedConfig {
  const config = resolveConfig({
    configPath: flags.config,
    cwd: io.cwd,
    env: io.env,
    overrides: {
      kbPath: flags.kbPath,
      dbPath: flags.dbPath,
      model: flags.model,
      modelDir: flags.modelDir,
      pooling: flags.pooling,
      queryPrefix: flags.queryPrefix,
      passagePrefix: flags.passagePrefix,
      reranker: flags.reranker,
      offline: flags.offline,
    },
  });
  return withDefaultIndexPath(config);
}
