// A TCP proxy that delays, "loses" and blacks out traffic, for a link this kernel cannot slow down itself (no
// netem qdisc): every chunk, either way, is held `delayMs` (± `jitterMs`); with probability `lossRate` it is held
// `stallMs` longer, as a lost segment waits for its retransmission. With `paused` set nothing passes either way —
// no data and no close — until it is cleared, when everything held is delivered in order, as TCP would once a
// partition heals. Order is kept per direction; nothing is dropped from the stream. Settings change at run time by
// JSON lines on stdin. Test-only.
import net from 'node:net';

const [listenPort, targetHost, targetPort] = process.argv.slice(2);
const settings = { delayMs: 0, jitterMs: 0, lossRate: 0, stallMs: 0, paused: false };
/** Each direction's drain, run when a pause ends. */
const drains = new Set();

/** One direction of one connection: actions (a chunk to write, or the close) run in order, each at its time. */
function direction() {
  let lastAt = 0;
  const held = [];
  const schedule = (action) => {
    const jitter = settings.jitterMs * (Math.random() * 2 - 1);
    const stall = Math.random() < settings.lossRate ? settings.stallMs : 0;
    const at = Math.max(lastAt, Date.now() + Math.max(0, settings.delayMs + jitter) + stall);
    lastAt = at;
    setTimeout(action, Math.max(0, at - Date.now()));
  };
  const drain = () => {
    for (const action of held.splice(0)) schedule(action);
  };
  drains.add(drain);
  return {
    push(action) {
      if (settings.paused || held.length > 0) held.push(action);
      else schedule(action);
    },
    drain,
    forget: () => drains.delete(drain),
  };
}

const server = net.createServer((inbound) => {
  const outbound = net.connect(Number(targetPort), targetHost);
  const close = () => {
    inbound.destroy();
    outbound.destroy();
    toServer.forget();
    toClient.forget();
  };
  const toServer = direction();
  const toClient = direction();
  inbound.on('data', (chunk) => toServer.push(() => outbound.destroyed || outbound.write(chunk)));
  outbound.on('data', (chunk) => toClient.push(() => inbound.destroyed || inbound.write(chunk)));
  inbound.on('error', () => toServer.push(close));
  outbound.on('error', () => toClient.push(close));
  inbound.on('close', () => toServer.push(close));
  outbound.on('close', () => toClient.push(close));
});
server.listen(Number(listenPort), '127.0.0.1', () => process.stdout.write('ready\n'));
let pending = '';
process.stdin.on('data', (chunk) => {
  pending += chunk.toString();
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) {
    if (!line.trim()) continue;
    Object.assign(settings, JSON.parse(line));
    if (!settings.paused) for (const drain of drains) drain();
  }
});
process.stdin.on('end', () => process.exit(0));
