// A real `groove serve --transport http` process used as one replica of a knowledge base on a shared store: started
// from the built CLI with a groove.toml, its port read from its own announcement, asked /healthz and /api/search
// over real HTTP, and stopped or killed by signal. Test-only.
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import { binPath } from './run-bin.js';

const SERVING = /serving .* at http:\/\/127\.0\.0\.1:(\d+)\/mcp/;

export interface ReplicaHealth {
  status: string;
  storage: {
    backend: string;
    role?: 'writer' | 'reader';
    applied_version?: number;
    latest_version?: number;
    lag_versions?: number;
    lag_ms?: number;
    listening?: boolean;
  };
}

export interface ServeReplica {
  pid: number;
  port: number;
  log(): string;
  health(): Promise<ReplicaHealth>;
  /** Paths of the results of `GET /api/search?q=…`. */
  searchPaths(query: string, limit?: number): Promise<string[]>;
  /** Resolves when the process has exited (by itself or by a signal). */
  exited: Promise<void>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

export interface ReplicaOptions {
  kbPath: string;
  configPath: string;
  cwd: string;
  env?: Record<string, string>;
  startTimeoutMs?: number;
}

export async function startServeReplica(options: ReplicaOptions): Promise<ServeReplica> {
  const args = [binPath, 'serve', '--transport', 'http', '--port', '0', '--kb-path', options.kbPath];
  args.push('--config', options.configPath, '--debounce-ms', '50');
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    // Each replica answers only over HTTP: the local CLI socket would be shared by all of them.
    env: { ...process.env, GROOVE_OFFLINE: '1', NO_COLOR: '1', GROOVE_HTTP_TOKEN: '', ...options.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await announcedPort(child, () => stderr, options.startTimeoutMs ?? 60_000);
  return {
    pid: child.pid!,
    port,
    log: () => stderr,
    health: () => getJson<ReplicaHealth>(port, '/healthz'),
    searchPaths: async (query, limit = 10) => {
      const target = `/api/search?q=${encodeURIComponent(query)}&limit=${limit}`;
      const answer = await getJson<{ results: { path: string }[] }>(port, target);
      return answer.results.map((result) => result.path);
    },
    exited,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

function announcedPort(child: ChildProcess, stderr: () => string, timeoutMs: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start in time:\n${stderr()}`)), timeoutMs);
    const look = () => {
      const match = SERVING.exec(stderr());
      if (!match) return;
      clearTimeout(timer);
      child.stderr!.off('data', look);
      resolve(Number(match[1]));
    };
    child.stderr!.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before serving:\n${stderr()}`));
    });
  });
}

function getJson<T>(port: number, target: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: target }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`GET ${target}: ${res.statusCode} ${body}`));
        else resolve(JSON.parse(body) as T);
      });
    });
    req.on('error', reject);
  });
}
