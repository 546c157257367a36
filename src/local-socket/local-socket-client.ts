// The CLI's side of the local socket: ask a running `groove serve` for the index, within two deadlines (connect,
// then answer). It never throws and never waits past them: every failure — no folder, a socket that is a link,
// another user's or open to others, nobody listening, a slow or refusing server, a garbled reply — comes back as
// a reason, and the CLI answers in-process.
import net from 'node:net';
import { folderRefusal, type LocalSocketPlace, socketRefusal } from './local-socket-path.js';
import {
  LineReader,
  LOCAL_PROTOCOL_VERSION,
  type LocalOp,
  type LocalRequest,
  parseReply,
} from './local-socket-protocol.js';

export interface AskOptions {
  place: LocalSocketPlace;
  op: LocalOp;
  configKey: string;
  body: Record<string, unknown>;
  connectMs: number;
  answerMs: number;
}

export type AskResult =
  | { answered: true; stdout: string; stderr: string }
  | { answered: false; reason: string };

/** Whether the socket is there and may be used, without connecting: null if so, else why not. */
export function localSocketProblem(place: LocalSocketPlace): string | null {
  return folderRefusal(place.dir) ?? socketRefusal(place.socketPath);
}

/** Send one request to the index's server and wait for its reply, or a reason to answer in-process. */
export function askLocalServer(options: AskOptions): Promise<AskResult> {
  const problem = localSocketProblem(options.place);
  if (problem !== null) return Promise.resolve({ answered: false, reason: problem });
  const request: LocalRequest = {
    v: LOCAL_PROTOCOL_VERSION,
    op: options.op,
    identity: options.place.identity,
    configKey: options.configKey,
    body: options.body,
  };
  return new Promise((resolve) => {
    const socket = net.connect(options.place.socketPath);
    const reader = new LineReader();
    let timer = setTimeout(
      () => finish({ answered: false, reason: 'no connection in time' }),
      options.connectMs,
    );
    function finish(result: AskResult): void {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    }
    socket.once('connect', () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish({ answered: false, reason: 'no answer in time' }), options.answerMs);
      socket.write(`${JSON.stringify(request)}\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      const line = reader.push(chunk);
      if (reader.tooLong) return finish({ answered: false, reason: 'the answer is too long' });
      if (line === null) return;
      const reply = parseReply(line);
      if (reply === null) return finish({ answered: false, reason: 'not a reply' });
      if (!reply.ok) return finish({ answered: false, reason: `the server refused: ${reply.reason}` });
      finish({ answered: true, stdout: reply.stdout, stderr: reply.stderr });
    });
    socket.once('error', (error: NodeJS.ErrnoException) =>
      finish({ answered: false, reason: `cannot connect (${error.code ?? error.message})` }),
    );
    socket.once('end', () => finish({ answered: false, reason: 'the server closed without an answer' }));
  });
}

/** Whether a `groove serve` is listening on the index's socket now (it accepts a connection). */
export function isLocalServerListening(place: LocalSocketPlace, connectMs = 1000): Promise<boolean> {
  if (localSocketProblem(place) !== null) return Promise.resolve(false);
  return new Promise((resolve) => {
    const socket = net.connect(place.socketPath);
    const finish = (listening: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(listening);
    };
    const timer = setTimeout(() => finish(false), connectMs);
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}
