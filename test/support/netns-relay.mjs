// Run inside a network namespace: listen on a Unix socket path (paths are not per namespace) and pipe each
// connection to 127.0.0.1:PORT of this namespace, so a test outside it can reach a server inside. Test-only.
import fs from 'node:fs';
import net from 'node:net';

const [socketPath, port] = process.argv.slice(2);
fs.rmSync(socketPath, { force: true });
const server = net.createServer((inbound) => {
  const outbound = net.connect(Number(port), '127.0.0.1');
  inbound.pipe(outbound).pipe(inbound);
  const close = () => {
    inbound.destroy();
    outbound.destroy();
  };
  inbound.on('error', close);
  outbound.on('error', close);
  inbound.on('close', close);
  outbound.on('close', close);
});
server.listen(socketPath, () => process.stdout.write('ready\n'));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
