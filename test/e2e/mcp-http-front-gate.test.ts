// The HTTP front gate on a real socket: the guards run before anything parses the request target or body, and each
// hostile request gets one defined answer — a bad URL 400, a missing or doubled Host 403, a non-JSON Content-Type
// 415, a body that is not UTF-8 a parse error with no session opened, oversized headers 431, a client that drops
// its upload nothing, `100 Continue` only once the checks passed — with no stack trace in the log.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { KnowledgeBase } from '../../src/app/knowledge-base.js';
import { IndexRunner } from '../../src/app/serve/index-runner.js';
import type { HttpServeOptions, HttpServing } from '../../src/mcp/transport-http.js';
import { CountingEmbedder } from '../support/counting-embedder.js';
import { createServeKb, openTestKb, type ServeKb, serveKbOverHttp, waitFor } from '../support/mcp-fixture.js';

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
    serving = await serveKbOverHttp(kb, runner, logs, overrides);
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

  it('routes the request target as sent: a protocol-relative or absolute target never reaches /mcp', async () => {
    const port = await start();
    const initialize = initializeWithName(Buffer.from('ok'));
    const protocolRelative = await sendRaw(
      port,
      postBytes(port, initialize).toString('latin1').replace('POST /mcp', 'POST //evil.example/mcp'),
    );
    expect(protocolRelative.status).toBe(404);
    const absolute = await sendRaw(
      port,
      postBytes(port, initialize).toString('latin1').replace('POST /mcp', 'POST http://evil.example/mcp'),
    );
    expect(absolute.status).toBe(400);
    expect(absolute.text).toMatch(/not a valid URL path/);
    expect(await sessionCount(port)).toBe(0);
  });

  it('refuses a POST whose Content-Type is not JSON in UTF-8 with 415, whatever the body', async () => {
    const port = await start();
    const bodies = ['garbage', '{"hello":"world"}', initializeWithName(Buffer.from('ok')).toString()];
    for (const type of ['text/plain', 'application/json; charset=latin1', 'application/jsonl']) {
      for (const body of bodies) {
        const request = postBytes(port, Buffer.from(body)).toString('latin1');
        const reply = await sendRaw(port, request.replace('application/json', type));
        expect(reply.status, `${type}: ${body}`).toBe(415);
        expect(reply.text).toMatch(/Content-Type must be application\/json/);
      }
    }
    const withoutType = postBytes(port, Buffer.from(bodies[2]!))
      .toString('latin1')
      .replace('Content-Type: application/json\r\n', '');
    expect((await sendRaw(port, withoutType)).status).toBe(415);
    expect(await sessionCount(port)).toBe(0);
    const utf8 = postBytes(port, Buffer.from(bodies[2]!)).toString('latin1');
    const accepted = await sendRaw(
      port,
      utf8.replace('application/json', 'Application/JSON; charset="UTF-8"'),
    );
    expect(accepted.status).toBe(200);
  });

  it('sends 100 Continue only after the gate, the Content-Type and the declared size passed', async () => {
    const port = await start();
    const expecting = (host: string, type: string, length: number) =>
      `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: ${type}\r\n` +
      `Accept: application/json, text/event-stream\r\nExpect: 100-continue\r\nContent-Length: ${length}\r\n` +
      'Connection: close\r\n\r\n';
    const here = `127.0.0.1:${port}`;
    const foreign = await sendRaw(port, expecting('evil.example', 'application/json', 100_000));
    expect(foreign.text.split('\r\n')[0]).toBe('HTTP/1.1 403 Forbidden');
    const wrongType = await sendRaw(port, expecting(here, 'text/plain', 100_000));
    expect(wrongType.text.split('\r\n')[0]).toBe('HTTP/1.1 415 Unsupported Media Type');
    const tooLarge = await sendRaw(port, expecting(here, 'application/json', 2 * 1024 * 1024));
    expect(tooLarge.text.split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large');
    // A request that passes gets its 100 Continue, sends the body, and is served.
    const body = initializeWithName(Buffer.from('ok'));
    const served = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => {
        const first = received === '';
        received += chunk.toString('latin1');
        if (first && received.startsWith('HTTP/1.1 100 Continue')) socket.write(body);
      });
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
      socket.write(expecting(here, 'application/json', body.length));
    });
    expect(served).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK/);
  });

  it('refuses a request with two Host headers like a wrong Host (403)', async () => {
    const port = await start();
    const request = postBytes(port, initializeWithName(Buffer.from('ok'))).toString('latin1');
    // The allowed Host first: a server that reads only the first one would serve the request.
    const allowedHost = `Host: 127.0.0.1:${port}\r\n`;
    const reply = await sendRaw(port, request.replace(allowedHost, `${allowedHost}Host: evil.example\r\n`));
    expect(reply.status).toBe(403);
    expect(reply.text).toMatch(/more than one Host header/);
    expect(await sessionCount(port)).toBe(0);
  });

  it('answers oversized request headers with 431 and one short log line', async () => {
    const port = await start();
    const reply = await sendRaw(
      port,
      `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
    );
    expect(reply.status).toBe(431);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/^http: bad request from a client: HPE_HEADER_OVERFLOW$/);
  });
});
