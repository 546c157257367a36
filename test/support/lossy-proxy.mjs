// A TCP proxy that delays and "loses" traffic, for a link this kernel cannot slow down itself (no netem qdisc):
// every chunk, either way, is held `delayMs` (± `jitterMs`); with probability `lossRate` it is held `stallMs`
// longer, as a lost segment waits for its retransmission. Order is kept per direction; nothing is dropped from
// the stream, since TCP retransmits. Settings change at run time by JSON lines on stdin. Test-only.
import net from 'node:net';

const [listenPort, targetHost, targetPort] = process.argv.slice(2);
const settings = { delayMs: 0, jitterMs: 0, lossRate: 0, stallMs: 0 };

/** Forward `from` to `to`, each chunk at its scheduled time, never before an earlier one. */
function forward(from, to) {
  let lastAt = 0;
  from.on('data', (chunk) => {
    const jitter = settings.jitterMs * (Math.random() * 2 - 1);
    const stall = Math.random() < settings.lossRate ? settings.stallMs : 0;
    const at = Math.max(lastAt, Date.now() + Math.max(0, settings.delayMs + jitter) + stall);
    lastAt = at;
    const wait = at - Date.now();
    if (wait <= 0 && settings.delayMs === 0 && stall === 0) to.write(chunk);
    else setTimeout(() => to.destroyed || to.write(chunk), wait);
  });
  from.on('end', () => setTimeout(() => to.end(), Math.max(0, lastAt - Date.now())));
}

const server = net.createServer((inbound) => {
  const outbound = net.connect(Number(targetPort), targetHost);
  forward(inbound, outbound);
  forward(outbound, inbound);
  const close = () => {
    inbound.destroy();
    outbound.destroy();
  };
  inbound.on('error', close);
  outbound.on('error', close);
  inbound.on('close', () => setTimeout(close, settings.delayMs + settings.stallMs));
  outbound.on('close', () => setTimeout(close, settings.delayMs + settings.stallMs));
});
server.listen(Number(listenPort), '127.0.0.1', () => process.stdout.write('ready\n'));
let pending = '';
process.stdin.on('data', (chunk) => {
  pending += chunk.toString();
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) if (line.trim()) Object.assign(settings, JSON.parse(line));
});
process.stdin.on('end', () => process.exit(0));
