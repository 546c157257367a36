// `groove search` and `groove status` through a running `groove serve` for the same index (its local socket,
// src/local-socket/local-socket-*.ts). The CLI resolves its config as usual and sends the index identity and a hash of
// that config with the command's arguments; a server that serves the same index with the same config replies with
// the exact output the in-process command would print. No server, a refusal or a missed deadline means
// in-process, silently (GROOVE_DEBUG=1 prints why on stderr). `--no-server` or GROOVE_NO_SERVER=1 skip the socket.
import { createHash } from 'node:crypto';
import type { ResolvedConfig } from '../config/resolve-config.js';
import { askLocalServer } from '../local-socket/local-socket-client.js';
import { localSocketPlace } from '../local-socket/local-socket-path.js';
import type { LocalOp } from '../local-socket/local-socket-protocol.js';
import type { CliIo } from './cli-io.js';

/** Deadlines, overridable by GROOVE_SERVER_CONNECT_MS and GROOVE_SERVER_ANSWER_MS. */
const CONNECT_MS = 150;
const ANSWER_MS = 3000;

/** Config parts that only shape serving (transport, file watching) or are filled in when the index opens. */
const NOT_IN_KEY = new Set(['transport', 'watch', 'recordedSetup']);
/** What `groove status` reads of the config (KnowledgeBase.status): the model flags do not change it. */
const STATUS_KEY = new Set(['kbPath', 'dbPath', 'parsers']);

export interface ConfigKeys {
  search: string;
  status: string;
}

/**
 * Hashes of everything in the resolved config that can change a command's answer: the CLI and the server must
 * resolve the same. Both build the object by the same code, so key order matches; a difference costs a fallback.
 */
export function configKeys(config: ResolvedConfig): ConfigKeys {
  const hash = (keep: (key: string) => boolean) =>
    createHash('sha256')
      .update(JSON.stringify(Object.entries(config).filter(([key]) => keep(key))))
      .digest('hex');
  return { search: hash((key) => !NOT_IN_KEY.has(key)), status: hash((key) => STATUS_KEY.has(key)) };
}

/** Whether the user turned the server path off (`--no-server`, GROOVE_NO_SERVER=1). */
export function serverPathOff(flags: { server?: boolean }, env: CliIo['env']): boolean {
  const value = env.GROOVE_NO_SERVER;
  return flags.server === false || (value !== undefined && value !== '' && value !== '0');
}

function deadline(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return value !== undefined && Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}

/**
 * Answer a command through the index's server: writes its output and returns true, or returns false (having
 * written nothing but a debug line) when the command must run in-process.
 */
export async function answerThroughServer(
  op: LocalOp,
  body: Record<string, unknown>,
  config: ResolvedConfig,
  flags: { server?: boolean },
  io: CliIo,
): Promise<boolean> {
  if (serverPathOff(flags, io.env) || !config.dbPath) return false;
  const place = localSocketPlace(config.dbPath, io.env);
  if (place === null) return false;
  const result = await askLocalServer({
    place,
    op,
    configKey: configKeys(config)[op],
    body,
    connectMs: deadline(io.env.GROOVE_SERVER_CONNECT_MS, CONNECT_MS),
    answerMs: deadline(io.env.GROOVE_SERVER_ANSWER_MS, ANSWER_MS),
  });
  if (!result.answered) {
    if (io.env.GROOVE_DEBUG) io.stderr.write(`groove: debug: answering in-process: ${result.reason}\n`);
    return false;
  }
  if (io.env.GROOVE_DEBUG) io.stderr.write(`groove: debug: answered by groove serve (${place.socketPath})\n`);
  io.stdout.write(result.stdout);
  if (result.stderr !== '') io.stderr.write(result.stderr);
  return true;
}
