// The HTTP front gate on a real socket: the guards run before anything parses the request target or body, and each
// hostile request gets one defined answer — a bad URL 400, a missing Host 403, a body that is not UTF-8 a parse
// error with no session opened, a client that drops its upload nothing — with no stack trace in the log.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { IndexRunner } from '../../src/app/index-runner.js';
import type { KnowledgeBase } from '../../src/app/knowledge-base.js';
import { createGrooveServer } from '../../src/mcp/server.js';
import { type HttpServeOptions, type HttpServing, serveHttp } from '../../src/mcp/transport-http.js';
import { CountingEmbedder } from '../support/counting-embedder.js';
import { createServeKb, openTestKb, type ServeKb, waitFor } from '../support/mcp-fixture.js';

interface RawReply {
  status: number;
  text: string;
}

/** Send raw bytes on a fresh socket and read the whole reply (the server closes or answers with a body). */
function sendRaw(port: number, bytes: Buffer | string): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      const headerEnd = received.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(received);
      if (headerEnd !== -1 && length && received.length >= headerEnd + 4 + Number(length[1])) socket.end();
    });
    socket.on('end', () => resolve({ status: Number(received.split(' ')[1]), text: received }));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

function postBytes(port: number, body: Buffer, extraHeaders = ''): Buffer {
  const head =
    'POST /mcp HTTP/1.1\r\n' +
    `Host: 127.0.0.1:${port}\r\n` +
    'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n' +
    `${extraHeaders}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

function initializeWithName(nameBytes: Buffer): Buffer {
  const before = Buffer.from(
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"',
  );
  return Buffer.concat([before, nameBytes, Buffer.from('","version":"1"}}}')]);
}

const STACK_LINE = /^\s+at /m;

describe('the HTTP front gate', () => {
  let serveKb: ServeKb | null = null;
  let kb: KnowledgeBase | null = null;
  let serving: HttpServing | null = null;
  const logs: string[] = [];

  afterEach(async () => {
    await serving?.close();
    await kb?.close();
    serveKb?.cleanup();
    serving = null;
    kb = null;
    serveKb = null;
    logs.length = 0;
  });

  async function start(overrides: Partial<HttpServeOptions> = {}): Promise<number> {
    serveKb = createServeKb();
    kb = openTestKb(serveKb, new CountingEmbedder());
    await kb.index();
    const runner = new IndexRunner(kb);
    const openKb = kb;
    serving = await serveHttp({
      createServer: () =>
        createGrooveServer({ kb: openKb, runner, version: 'test', log: (l) => logs.push(l) }),
      bind: '127.0.0.1',
      port: 0,
      allowedHosts: [],
      allowedOrigins: [],
      token: null,
      maxSessions: 256,
      healthzPublic: true,
      log: (line) => logs.push(line),
      ...overrides,
    });
    return serving.port;
  }

  async function sessionCount(port: number): Promise<number> {
    const reply = await sendRaw(
      port,
      `GET /healthz HTTP/1.1\r\nHost: localhost:${port}\r\nConnection: close\r\n\r\n`,
    );
    return JSON.parse(reply.text.slice(reply.text.indexOf('\r\n\r\n') + 4)).sessions;
  }

  it('runs the guards before parsing the request target: `//[` is 403/401 at the gate, else 400', async () => {
    const port = await start({ token: 'sekret' });
    const foreign = await sendRaw(
      port,
      'GET //[ HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n',
    );
    expect(foreign.status).toBe(403);
    const noToken = await sendRaw(
      port,
      `GET //[ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
    );
    expect(noToken.status).toBe(401);
    const authorised = await sendRaw(
      port,
      `GET //[ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer sekret\r\nConnection: close\r\n\r\n`,
    );
    expect(authorised.status).toBe(400);
    expect(authorised.text).toMatch(/not a valid URL path/);
    expect(logs.join('\n')).not.toMatch(STACK_LINE);
    expect(logs.join('\n')).not.toMatch(/TypeError|Invalid URL/);
  });

  it('answers an HTTP/1.1 request without a Host header with 403, like a wrong Host', async () => {
    const port = await start();
    const reply = await sendRaw(
      port,
      'POST /mcp HTTP/1.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
    );
    expect(reply.status).toBe(403);
    expect(reply.text).toMatch(/is not allowed \(DNS-rebinding guard\)/);
  });

  it('refuses a body with invalid UTF-8 inside a JSON string as a parse error and opens no session', async () => {
    const port = await start();
    const valid = await sendRaw(port, postBytes(port, initializeWithName(Buffer.from('ok'))));
    expect(valid.status).toBe(200);
    const before = await sessionCount(port);
    for (const bad of [Buffer.from([0xff, 0xfe]), Buffer.from([0xc3]), Buffer.from([0xed, 0xa0, 0x80])]) {
      const reply = await sendRaw(port, postBytes(port, initializeWithName(bad)));
      expect(reply.status).toBe(400);
      expect(reply.text).toMatch(/-32700/);
      expect(reply.text).toMatch(/not valid UTF-8/);
    }
    expect(await sessionCount(port)).toBe(before);
  });

  it('logs nothing, and no stack, for clients that drop their body mid-upload; the server keeps serving', async () => {
    const port = await start();
    for (let i = 0; i < 30; i++) {
      await new Promise<void>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          const body = initializeWithName(Buffer.from('x'.repeat(2000)));
          const whole = postBytes(port, body);
          socket.write(whole.subarray(0, whole.length - 1000), () => {
            setTimeout(() => {
              socket.destroy();
              resolve();
            }, 5);
          });
        });
        socket.on('error', () => resolve());
      });
    }
    await waitFor(async () => (await sessionCount(port)) === 0);
    expect(logs.join('\n')).not.toMatch(STACK_LINE);
    expect(logs).toEqual([]);
  });
});
