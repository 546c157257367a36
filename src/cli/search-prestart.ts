// The cold-search prestart (bin/groove.js): a `groove search` that will embed its query with a local model starts
// the inference thread before the CLI's modules load, so the thread's import of the model library overlaps them.
// Whether it will is decided the way the search session decides — the config (flags, groove.toml, env), then the
// model the index records, read from index_meta — so a lexical-only search never loads the model libraries
// (onnxruntime-node, sharp). Any doubt (no index, a bad config, flags it cannot read) means no prestart: the
// search then starts the thread itself if it needs one, and reports its own errors.
import { parseArgs } from 'node:util';
import { prestartInference, searchOpensLocalModel, stopUnusedInference } from '../app/prestart.js';
import type { CliIo } from './cli-io.js';
import { loadConfig } from './common-options.js';

/** The flags of `groove search` that choose the index and the model; everything else is ignored here. */
const MODEL_FLAGS = {
  config: { type: 'string' },
  'kb-path': { type: 'string' },
  'db-path': { type: 'string' },
  model: { type: 'string' },
  'model-dir': { type: 'string' },
  offline: { type: 'boolean' },
} as const;

/** Whether `groove search <args>` will open a local embedding model (on the inference thread). */
export function searchArgsOpenLocalModel(args: string[], io: CliIo): boolean {
  try {
    const { values } = parseArgs({ args, options: MODEL_FLAGS, strict: false, allowPositionals: true });
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const config = loadConfig(
      {
        config: text(values.config),
        kbPath: text(values['kb-path']),
        dbPath: text(values['db-path']),
        model: text(values.model),
        modelDir: text(values['model-dir']),
        offline: values.offline === true ? true : undefined,
      },
      io,
    );
    return searchOpensLocalModel(config);
  } catch {
    return false;
  }
}

/** Start the inference thread now when the search will need it. */
export function prestartForSearch(args: string[], io: CliIo): void {
  if (searchArgsOpenLocalModel(args, io)) prestartInference();
}

/** After the command: stop a prestarted thread the search did not take over (it failed before loading a model). */
export async function stopUnusedPrestart(): Promise<void> {
  await stopUnusedInference();
}
