// The cold-search prestart (bin/groove.js): a `groove search` that will embed its query with a local model starts
// the inference thread before the CLI's modules load, so the thread's import of the model library overlaps them.
// Whether it will is decided the way the search session decides — the config (flags, groove.toml, env), then the
// model the index records, read from index_meta — so a lexical-only search never loads the model libraries
// (onnxruntime-node, sharp). Any doubt (no index, a bad config, flags it cannot read) means no prestart: the
// search then starts the thread itself if it needs one, and reports its own errors. Neither does a search that a
// running `groove serve` will likely answer (its socket is in place, local-server.ts): if it does not answer after
// all, the in-process search starts the thread itself. The model modules are imported only past that check.
import { parseArgs } from 'node:util';
import type { ResolvedConfig } from '../config/resolve-config.js';
import { localSocketProblem } from '../local-socket/local-socket-client.js';
import { localSocketPlace } from '../local-socket/local-socket-path.js';
import type { CliIo } from './cli-io.js';
import { loadConfig } from './common-options.js';
import { serverPathOff } from './local-server.js';

/** The flags of `groove search` that choose the index and the model; everything else is ignored here. */
const MODEL_FLAGS = {
  config: { type: 'string' },
  'kb-path': { type: 'string' },
  kb: { type: 'string', multiple: true },
  'db-path': { type: 'string' },
  model: { type: 'string' },
  'model-dir': { type: 'string' },
  offline: { type: 'boolean' },
  'no-server': { type: 'boolean' },
} as const;

/** The config `groove search <args>` resolves, and whether it may ask a server; null when in doubt. */
function searchArgsConfig(args: string[], io: CliIo): { config: ResolvedConfig; serverOff: boolean } | null {
  try {
    const { values } = parseArgs({ args, options: MODEL_FLAGS, strict: false, allowPositionals: true });
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const config = loadConfig(
      {
        config: text(values.config),
        kbPath: text(values['kb-path']),
        kb: Array.isArray(values.kb) ? values.kb.filter((name) => typeof name === 'string') : undefined,
        dbPath: text(values['db-path']),
        model: text(values.model),
        modelDir: text(values['model-dir']),
        offline: values.offline === true ? true : undefined,
      },
      io,
    );
    return { config, serverOff: serverPathOff({ server: values['no-server'] !== true }, io.env) };
  } catch {
    return null;
  }
}

/** Whether `groove search <args>` will open a local embedding model (on the inference thread). */
export async function searchArgsOpenLocalModel(args: string[], io: CliIo): Promise<boolean> {
  const resolved = searchArgsConfig(args, io);
  return resolved !== null && (await opensLocalModel(resolved.config));
}

async function opensLocalModel(config: ResolvedConfig): Promise<boolean> {
  const { searchOpensLocalModel } = await import('../app/prestart.js');
  try {
    return searchOpensLocalModel(config);
  } catch {
    return false;
  }
}

let prestarted = false;

/** Whether a running server's socket for the index is in place (so the search will likely be answered there). */
function serverSocketInPlace(config: ResolvedConfig, io: CliIo): boolean {
  const place = config.dbPath ? localSocketPlace(config.dbPath, io.env) : null;
  return place !== null && localSocketProblem(place) === null;
}

/** Start the inference thread now when the search will need it and no server is there to answer it. */
export async function prestartForSearch(args: string[], io: CliIo): Promise<void> {
  const resolved = searchArgsConfig(args, io);
  if (resolved === null) return;
  if (!resolved.serverOff && serverSocketInPlace(resolved.config, io)) return;
  if (!(await opensLocalModel(resolved.config))) return;
  const { prestartInference } = await import('../app/prestart.js');
  prestartInference();
  prestarted = true;
}

/** After the command: stop a prestarted thread the search did not take over (it failed before loading a model). */
export async function stopUnusedPrestart(): Promise<void> {
  if (!prestarted) return;
  const { stopUnusedInference } = await import('../app/prestart.js');
  await stopUnusedInference();
}
