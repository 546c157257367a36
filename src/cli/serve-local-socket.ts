// `groove serve`'s local socket for CLI calls (src/local-socket/local-socket-server.ts): `groove search` and `groove status`
// for the served index, answered from the served knowledge base with the in-process commands' own output.
import type { KnowledgeBase } from '../app/index.js';
import type { ResolvedConfig } from '../config/resolve-config.js';
import type { SearchRequest } from '../config/search-params.js';
import { localSocketPlace } from '../local-socket/local-socket-path.js';
import type { LocalRequest } from '../local-socket/local-socket-protocol.js';
import { type LocalSocketHandle, listenLocalSocket } from '../local-socket/local-socket-server.js';
import type { CliIo } from './cli-io.js';
import { type CommandOutput, searchOutput, statusOutput } from './command-output.js';
import type { ConfigKeys } from './local-server.js';

/**
 * Listen for CLI calls on the index's local socket. `configKeys` are computed from the config as resolved before
 * the index opened, as the CLI computes its own. Null when this platform or the socket place does not allow it.
 */
export async function startLocalSocket(options: {
  kb: KnowledgeBase;
  config: ResolvedConfig;
  configKeys: ConfigKeys;
  env: CliIo['env'];
  log: (line: string) => void;
}): Promise<LocalSocketHandle | null> {
  const { kb, config } = options;
  const place = config.dbPath ? localSocketPlace(config.dbPath, options.env) : null;
  if (place === null) return null;
  const handle = await listenLocalSocket({
    place,
    configKeys: options.configKeys,
    log: options.log,
    answer: (request) => answer(kb, request),
  });
  if (handle) options.log(`answering groove search and groove status on ${handle.socketPath}`);
  return handle;
}

async function answer(kb: KnowledgeBase, request: LocalRequest): Promise<CommandOutput> {
  const format = typeof request.body.format === 'string' ? request.body.format : undefined;
  if (request.op === 'status') return statusOutput(kb, format);
  const search = request.body.request;
  if (search === null || typeof search !== 'object') throw new Error('no search request');
  const text = request.body.text as { full?: unknown; color?: unknown } | undefined;
  return searchOutput(kb, search as SearchRequest, format, {
    full: text?.full === true,
    color: text?.color === true,
  });
}
