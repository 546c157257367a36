// A private network of Linux network namespaces for partition tests: one "hub" namespace holding a bridge, and
// one namespace per host, each joined to the bridge by a veth pair created inside the hub (nothing is added to
// the machine's own namespace; the addresses exist only inside these namespaces). A host's link is cut by taking
// its bridge-side veth down: its TCP connections are not closed, its packets just stop. Processes run inside a
// host with `ip netns exec`; a test outside reaches a server inside through a Unix-socket relay (socket paths are
// not per namespace). Root only; `skipReason` says why not. Test-only.
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SUBNET = '10.231.0';
const relayScript = path.join(import.meta.dirname, 'netns-relay.mjs');

/** Why network namespaces cannot be made here, or null when they can (checked by making and removing one). */
export function netnsSkipReason(): string | null {
  if (process.platform !== 'linux') return 'network namespaces are Linux only';
  if (process.getuid?.() !== 0) return 'making network namespaces needs root';
  const ip = spawnSync('ip', ['-V'], { encoding: 'utf8' });
  if (ip.error || ip.status !== 0) return 'no `ip` command (install iproute2)';
  const probe = `grvprobe${process.pid}`;
  const added = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (added.status !== 0) return `\`ip netns add\` failed: ${added.stderr.trim()}`;
  spawnSync('ip', ['netns', 'del', probe]);
  return null;
}

export interface LabHost {
  name: string;
  /** The namespace's name, for `ip netns exec`. */
  netns: string;
  address: string;
}

export interface LabProcess {
  child: ChildProcess;
  stderr(): string;
  exited: Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export class NetnsLab {
  readonly hosts = new Map<string, LabHost>();
  readonly folder: string;
  private readonly prefix: string;
  private readonly hub: string;
  private readonly processes: LabProcess[] = [];
  private readonly cleanups: (() => void)[] = [];

  constructor() {
    this.prefix = `grv${process.pid % 100_000}`;
    this.hub = `${this.prefix}-hub`;
    this.folder = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-netns-'));
    fs.chmodSync(this.folder, 0o755);
    // Whatever ends this process, the namespaces, processes and cluster go with it.
    process.on('exit', this.destroySync);
    try {
      this.ip('netns', 'add', this.hub);
      this.ipIn(this.hub, 'link', 'set', 'lo', 'up');
      this.ipIn(this.hub, 'link', 'add', 'br0', 'type', 'bridge');
      this.ipIn(this.hub, 'link', 'set', 'br0', 'up');
    } catch (error) {
      this.destroySync();
      throw error;
    }
  }

  /** A host on the bridge with address 10.231.0.<octet>/24 and its own loopback up. */
  addHost(name: string, octet: number): LabHost {
    const netns = `${this.prefix}-${name}`;
    this.ip('netns', 'add', netns);
    const inside = `v${name}`;
    const bridgeSide = `v${name}h`;
    this.ipIn(this.hub, 'link', 'add', inside, 'type', 'veth', 'peer', 'name', bridgeSide);
    this.ipIn(this.hub, 'link', 'set', inside, 'netns', netns);
    this.ipIn(this.hub, 'link', 'set', bridgeSide, 'master', 'br0', 'up');
    this.ipIn(netns, 'link', 'set', 'lo', 'up');
    this.ipIn(netns, 'addr', 'add', `${SUBNET}.${octet}/24`, 'dev', inside);
    this.ipIn(netns, 'link', 'set', inside, 'up');
    const host = { name, netns, address: `${SUBNET}.${octet}` };
    this.hosts.set(name, host);
    return host;
  }

  /** Cut (or restore) a host's link at the bridge: no FIN, no RST, its packets are simply not carried. */
  setLink(host: LabHost, up: boolean): void {
    this.ipIn(this.hub, 'link', 'set', `v${host.name}h`, up ? 'up' : 'down');
  }

  /** Run a command inside `host` to completion (stdout returned; a failure throws with its stderr). */
  execIn(host: LabHost, command: string, args: readonly string[]): string {
    return execFileSync('ip', ['netns', 'exec', host.netns, command, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  /** Start a long-running process inside `host`; it is stopped at cleanup whatever happened. */
  spawnIn(
    host: LabHost,
    command: string,
    args: readonly string[],
    options: { env?: NodeJS.ProcessEnv; cwd?: string; stdin?: boolean } = {},
  ): LabProcess {
    const child = spawn('ip', ['netns', 'exec', host.netns, command, ...args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const labProcess: LabProcess = {
      child,
      stderr: () => stderr,
      exited,
      stop: async (signal = 'SIGKILL') => {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        await exited;
      },
    };
    this.processes.push(labProcess);
    return labProcess;
  }

  /** A Unix socket in the lab folder that reaches 127.0.0.1:`port` inside `host`. */
  async relayTo(host: LabHost, port: number, name: string): Promise<string> {
    const socketPath = path.join(this.folder, `${name}.sock`);
    const relay = this.spawnIn(host, process.execPath, [relayScript, socketPath, String(port)], {
      stdin: true,
    });
    await waitForLine(relay, 'ready', 10_000);
    return socketPath;
  }

  /** Run `cleanup` at teardown, before the namespaces go (last added runs first). */
  onCleanup(cleanup: () => void): void {
    this.cleanups.push(cleanup);
  }

  /** Stop every process, run the cleanups, delete every namespace (and with them the veths) and the folder. */
  async destroy(): Promise<void> {
    await Promise.all(this.processes.map((p) => p.stop('SIGKILL')));
    this.destroySync();
  }

  /** The same without waiting for the processes to exit (also run when this process exits). */
  private readonly destroySync = (): void => {
    process.off('exit', this.destroySync);
    for (const p of this.processes)
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    for (const cleanup of this.cleanups.splice(0).reverse()) {
      try {
        cleanup();
      } catch {
        // keep tearing down the rest
      }
    }
    for (const host of this.hosts.values()) spawnSync('ip', ['netns', 'del', host.netns]);
    spawnSync('ip', ['netns', 'del', this.hub]);
    fs.rmSync(this.folder, { recursive: true, force: true });
  };

  private ip(...args: string[]): void {
    execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  }

  private ipIn(netns: string, ...args: string[]): void {
    execFileSync('ip', ['-n', netns, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  }
}

/** Resolve when the process prints `line` on stdout; reject when it exits first or the time runs out. */
export function waitForLine(labProcess: LabProcess, line: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`no "${line}" within ${timeoutMs} ms: ${labProcess.stderr()}`)),
      timeoutMs,
    );
    labProcess.child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.split('\n').includes(line)) {
        clearTimeout(timer);
        resolve();
      }
    });
    labProcess.exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`exited before "${line}": ${labProcess.stderr()}`));
    });
  });
}
