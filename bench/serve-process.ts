// A real `groove serve --transport http` process for the benchmarks: started from the built CLI, its address read
// from its own announcement, searched over its status-page JSON route, and its memory read from /proc.

import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const binPath = path.join(repoRoot, 'bin/groove.js');
const SERVING = /serving .* at http:\/\/127\.0\.0\.1:(\d+)\/mcp/;

export interface ServeProcess {
  pid: number;
  port: number;
  /** The MCP endpoint it announced. */
  url: string;
  /** Everything the process wrote to stderr so far. */
  log(): string;
  /** `GET /api/search?q=…&limit=…`, parsed; throws on a non-200 answer. */
  search(query: string, limit?: number): Promise<SearchJson>;
  /** `GET /healthz`, parsed (role, backend and lag on a shared store). */
  healthz(): Promise<unknown>;
  /** Resident and peak resident memory of the serve process in MB (Linux /proc; null elsewhere). */
  memory(): { rssMb: number; peakMb: number } | null;
  stop(): Promise<void>;
}

export interface SearchJson {
  results: { path: string; heading?: string | null }[];
  legs: Record<string, { status: string }>;
}

export interface ServeOptions {
  /** The KB folder (`--kb-path`); or `kbNames` for registered KBs (`--kb NAME` each). */
  kbPath?: string;
  kbNames?: readonly string[];
  /** Variables added to the process's environment (GROOVE_HOME for a registry of its own). */
  env?: Record<string, string>;
  /** The index file; left out when the config names a shared store instead. */
  dbPath?: string;
  /** A groove.toml to pass with --config (how the postgres benchmark names its store). */
  configPath?: string;
  /** A model folder, or null for `--model none`. */
  modelDir: string | null;
  watch: boolean;
  debounceMs?: number;
  /** How long to wait for the startup catch-up and the announcement. */
  startTimeoutMs?: number;
}

export async function startServe(options: ServeOptions): Promise<ServeProcess> {
  const args = [
    binPath,
    'serve',
    '--transport',
    'http',
    '--port',
    '0',
    ...(options.kbPath ? ['--kb-path', options.kbPath] : []),
    ...(options.kbNames ?? []).flatMap((name) => ['--kb', name]),
    ...(options.dbPath ? ['--db-path', options.dbPath] : []),
    ...(options.configPath ? ['--config', options.configPath] : []),
    ...(options.modelDir ? ['--model-dir', options.modelDir] : ['--model', 'none']),
    ...(options.watch ? ['--debounce-ms', String(options.debounceMs ?? 0)] : ['--no-watch']),
  ];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, GROOVE_OFFLINE: '1', NO_COLOR: '1', GROOVE_HTTP_TOKEN: '', ...options.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve did not announce itself in time:\n${stderr}`)),
      options.startTimeoutMs ?? 600_000,
    );
    child.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      const match = SERVING.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before serving:\n${stderr}`));
    });
  });
  return {
    pid: child.pid!,
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    log: () => stderr,
    search: (query, limit = 10) =>
      getJson<SearchJson>(port, `/api/search?q=${encodeURIComponent(query)}&limit=${limit}`),
    healthz: () => getJson<unknown>(port, '/healthz'),
    memory: () => readMemory(child.pid!),
    stop: () => stopChild(child),
  };
}

function getJson<T>(port: number, target: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: target, agent: keepAlive }, (res) => {
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

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });

function readMemory(pid: number): { rssMb: number; peakMb: number } | null {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
