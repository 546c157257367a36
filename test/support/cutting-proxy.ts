// A loopback TCP proxy in front of a database that can drop connections on cue: when a client sends bytes that
// contain a marker, every open connection is destroyed before those bytes reach the server (the server rolls the
// open transaction back), and new connections are refused while `refusing` is set. Test-only.
import net from 'node:net';

export interface CuttingProxy {
  port: number;
  /** Cut all connections at the next client packet containing this text (once), or never when null. */
  cutAt: string | null;
  /** Refuse new connections (a server that stays down). */
  refusing: boolean;
  /** Start refusing at the cut (the server goes away for good). */
  stayDownAfterCut: boolean;
  /** How many times connections were cut. */
  cuts: number;
  close(): Promise<void>;
}

export async function startCuttingProxy(target: { host: string; port: number }): Promise<CuttingProxy> {
  const open = new Set<net.Socket>();
  const cutAll = () => {
    for (const socket of open) socket.destroy();
    open.clear();
  };
  const proxy: CuttingProxy = {
    port: 0,
    cutAt: null,
    refusing: false,
    stayDownAfterCut: false,
    cuts: 0,
    close: () =>
      new Promise<void>((resolve) => {
        cutAll();
        server.close(() => resolve());
      }),
  };
  const server = net.createServer((client) => {
    if (proxy.refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    client.on('data', (bytes) => {
      if (proxy.cutAt !== null && bytes.includes(proxy.cutAt)) {
        proxy.cutAt = null;
        proxy.cuts++;
        if (proxy.stayDownAfterCut) proxy.refusing = true;
        cutAll();
        return;
      }
      upstream.write(bytes);
    });
    upstream.on('data', (bytes) => client.write(bytes));
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      a.on('error', () => b.destroy());
      a.on('close', () => {
        open.delete(a);
        b.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.port = (server.address() as net.AddressInfo).port;
  return proxy;
}
