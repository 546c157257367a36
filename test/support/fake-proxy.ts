// A tiny loopback HTTP proxy (real sockets on 127.0.0.1): forwards absolute-form requests (`GET http://…`) and
// tunnels CONNECT requests, logging each with its Proxy-Authorization; `refuse` answers every request with that
// status instead. Test-only.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';

export interface ProxyLogEntry {
  method: string;
  target: string;
  proxyAuthorization: string | undefined;
  authorization: string | undefined;
}

export interface FakeProxy {
  url: string;
  log: ProxyLogEntry[];
  refuse: number | null;
  close(): Promise<void>;
}

export async function startFakeProxy(): Promise<FakeProxy> {
  const log: ProxyLogEntry[] = [];
  const sockets = new Set<net.Socket>();
  const proxy = { log, refuse: null } as FakeProxy;
  const record = (req: http.IncomingMessage) =>
    log.push({
      method: req.method ?? '',
      target: req.url ?? '',
      proxyAuthorization: req.headers['proxy-authorization'],
      authorization: req.headers.authorization,
    });
  const server = http.createServer((req, res) => {
    record(req);
    if (proxy.refuse !== null) {
      res.writeHead(proxy.refuse).end();
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const upstream = http.request(req.url ?? '', { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    record(req);
    if (proxy.refuse !== null) {
      client.end(`HTTP/1.1 ${proxy.refuse} Refused\r\n\r\n`);
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host as string, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return proxy;
}
