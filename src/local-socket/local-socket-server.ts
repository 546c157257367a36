// `groove serve`'s local socket: answers `groove search` and `groove status` from this machine's user, so a CLI
// call pays process start plus a warm search instead of loading the index and the model. The socket is created
// in an owner-only folder and made 0600; a leftover socket of a server that died is removed, but anything else
// in its place (a live server's socket, a file, a link, another user's entry) is left alone and the server runs
// without a local socket. Closing removes the socket it created, and only that one.
import fs from 'node:fs';
import net from 'node:net';
import { type LocalSocketPlace, preparePrivateFolder, socketRefusal } from './local-socket-path.js';
import {
  LineReader,
  LOCAL_PROTOCOL_VERSION,
  type LocalOp,
  type LocalReply,
  type LocalRequest,
  parseRequest,
} from './local-socket-protocol.js';

/** The command behind a request the server accepted (identity and config key match). */
export type LocalAnswer = (request: LocalRequest) => Promise<{ stdout: string; stderr: string }>;

export interface LocalSocketOptions {
  place: LocalSocketPlace;
  /** Per command, the hash of the server's resolved config; a request with another key is refused. */
  configKeys: Readonly<Record<LocalOp, string>>;
  answer: LocalAnswer;
  log: (line: string) => void;
}

export interface LocalSocketHandle {
  socketPath: string;
  close(): Promise<void>;
}

/** A connection that has not sent its request in this time is dropped. */
const REQUEST_DEADLINE_MS = 10_000;

/** Listen on the index's local socket; null (after one log line) when the place cannot be used safely. */
export async function listenLocalSocket(options: LocalSocketOptions): Promise<LocalSocketHandle | null> {
  const { place, log } = options;
  const folderProblem = preparePrivateFolder(place.dir);
  if (folderProblem !== null) {
    log(`no local socket for CLI calls: ${folderProblem} (${place.dir})`);
    return null;
  }
  const leftover = await clearLeftover(place.socketPath);
  if (leftover !== null) {
    log(`no local socket for CLI calls: ${leftover} (${place.socketPath})`);
    return null;
  }
  const connections = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    serveConnection(socket, options);
  });
  let created: number;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(place.socketPath, () => resolve());
    });
    fs.chmodSync(place.socketPath, 0o600);
    created = fs.lstatSync(place.socketPath).ino;
    // A later failure (an accept that runs out of file descriptors) is logged; MCP serving goes on.
    server.on('error', (error) => log(`local socket for CLI calls: ${error.message}`));
  } catch (error) {
    server.close();
    log(`no local socket for CLI calls: ${(error as Error).message}`);
    return null;
  }
  return {
    socketPath: place.socketPath,
    close: async () => {
      for (const socket of connections) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      removeIfSame(place.socketPath, created);
    },
  };
}

/**
 * Make room for the socket: nothing there, or a socket of this user that nobody answers on (its server died),
 * which is removed. Otherwise why the place is taken.
 */
async function clearLeftover(socketPath: string): Promise<string | null> {
  const problem = socketRefusal(socketPath);
  if (problem === 'no socket') return null;
  if (problem !== null) return `${problem}; left in place`;
  if (await answersConnect(socketPath)) return 'another groove serve already listens for this index';
  fs.rmSync(socketPath, { force: true });
  return null;
}

function answersConnect(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    const done = (live: boolean) => {
      socket.destroy();
      resolve(live);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(1000, () => done(false));
  });
}

/** Remove the socket file only if it is still the one this server created. */
function removeIfSame(socketPath: string, ino: number): void {
  try {
    if (fs.lstatSync(socketPath).ino === ino) fs.rmSync(socketPath, { force: true });
  } catch {
    // already gone
  }
}

function serveConnection(socket: net.Socket, options: LocalSocketOptions): void {
  const reader = new LineReader();
  socket.setTimeout(REQUEST_DEADLINE_MS, () => socket.destroy());
  socket.on('error', () => socket.destroy());
  const onData = (chunk: Buffer) => {
    const line = reader.push(chunk);
    if (reader.tooLong) return socket.destroy();
    if (line === null) return;
    socket.off('data', onData);
    socket.setTimeout(0);
    void reply(line, options).then((answer) => {
      if (!socket.destroyed) socket.end(`${JSON.stringify(answer)}\n`);
    });
  };
  socket.on('data', onData);
}

async function reply(line: string, options: LocalSocketOptions): Promise<LocalReply> {
  const refuse = (reason: string): LocalReply => ({ v: LOCAL_PROTOCOL_VERSION, ok: false, reason });
  const request = parseRequest(line);
  if (request === null) return refuse('not a request');
  if (request.identity !== options.place.identity) return refuse('this server serves another index');
  if (request.configKey !== options.configKeys[request.op])
    return refuse('this server resolved another config');
  try {
    return { v: LOCAL_PROTOCOL_VERSION, ok: true, ...(await options.answer(request)) };
  } catch (error) {
    // The CLI answers in-process instead, and reports the error itself.
    return refuse(`the command failed: ${(error as Error).message}`);
  }
}
