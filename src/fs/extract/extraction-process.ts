// The parent's handle on one extraction process (extract-worker.ts): started with its bounds — an RSS cap that
// its watchdog thread enforces and a V8 heap cap of the same size — and a private folder holding its temp folder
// (TMPDIR) and the watchdog's verdict file. When the process ends for any reason, the folder is removed before
// `ended` resolves, so nothing a stopped extraction wrote is left behind.
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WatchdogSettings, WatchdogVerdict } from './extract-watchdog.js';
import type { WorkerReply, WorkerRequest, WorkerSettings } from './extract-worker.js';

export interface ProcessBounds {
  /** RSS the process may reach. */
  maxRssBytes: number;
  /** Bytes of temp files it may hold. */
  maxTempBytes: number;
}

export interface ProcessEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Why the watchdog stopped it, when it did. */
  verdict: WatchdogVerdict | null;
}

/** How often the watchdog samples; memory can grow by at most what a parser allocates in this time past the cap. */
const WATCH_EVERY_MS = 10;
const MIB = 1024 * 1024;

export class ExtractionProcess {
  readonly ended: Promise<ProcessEnd>;
  private exited = false;
  private readonly endListeners = new Set<(end: ProcessEnd) => void>();

  private constructor(
    private readonly child: ChildProcess,
    private readonly folder: string,
    private readonly tempDir: string,
    readonly bounds: ProcessBounds,
  ) {
    this.ended = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exited = true;
        const verdict = readVerdict(path.join(folder, 'verdict.json'));
        fs.rmSync(folder, { recursive: true, force: true });
        process.off('exit', this.killAtExit);
        const end = { code, signal, verdict };
        resolve(end);
        for (const listener of this.endListeners) listener(end);
      });
    });
    child.on('error', () => child.kill('SIGKILL'));
    process.on('exit', this.killAtExit);
  }

  /** Start a process and wait until it says it is ready; rejects (with the process gone) when it is not in time. */
  static async start(
    bounds: ProcessBounds,
    options: { extractorModule?: string; startupTimeoutMs: number },
  ): Promise<ExtractionProcess> {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-extract-'));
    const tempDir = path.join(folder, 'tmp');
    fs.mkdirSync(tempDir);
    const watchdog: WatchdogSettings = {
      ...bounds,
      folder,
      tempDir,
      verdictFile: path.join(folder, 'verdict.json'),
      parentPid: process.pid,
      everyMs: WATCH_EVERY_MS,
    };
    const settings: WorkerSettings = { watchdog, extractorModule: options.extractorModule };
    const child = fork(workerEntry(), [JSON.stringify(settings)], {
      execArgv: [
        ...loaderArgs(),
        `--max-old-space-size=${Math.max(64, Math.floor(bounds.maxRssBytes / MIB))}`,
      ],
      env: { ...process.env, TMPDIR: tempDir, TMP: tempDir, TEMP: tempDir },
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    const started = new ExtractionProcess(child, folder, tempDir, bounds);
    try {
      await started.ready(options.startupTimeoutMs);
    } catch (error) {
      await started.kill();
      throw error;
    }
    return started;
  }

  get alive(): boolean {
    return !this.exited;
  }

  send(request: WorkerRequest): void {
    this.child.send(request, undefined, undefined, () => {});
  }

  onReply(listener: (reply: WorkerReply) => void): () => void {
    this.child.on('message', listener);
    return () => this.child.off('message', listener);
  }

  /** Called once the process has ended and its folder is removed; returns the unsubscribe. */
  onEnd(listener: (end: ProcessEnd) => void): () => void {
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  /** Keep groove running while a job is in the process; an idle process keeps nothing alive. */
  hold(busy: boolean): void {
    if (busy) {
      this.child.ref();
      this.child.channel?.ref();
    } else {
      this.child.unref();
      this.child.channel?.unref();
    }
  }

  /** Remove what the last job left in the temp folder (the process is idle between jobs). */
  emptyTemp(): void {
    for (const entry of fs.readdirSync(this.tempDir)) {
      fs.rmSync(path.join(this.tempDir, entry), { recursive: true, force: true });
    }
  }

  /** SIGKILL the process; resolves once it is gone and its folder removed. */
  kill(): Promise<ProcessEnd> {
    if (!this.exited) this.child.kill('SIGKILL');
    return this.ended;
  }

  private ready(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const onMessage = (reply: WorkerReply) => {
        if ('ready' in reply) finish(null);
      };
      this.child.on('message', onMessage);
      const stopWaitingForEnd = this.onEnd((end) => finish(new Error(describeEnd(end))));
      const timer = setTimeout(() => finish(new Error(`not ready after ${timeoutMs} ms`)), timeoutMs);
      const finish = (error: Error | null) => {
        clearTimeout(timer);
        this.child.off('message', onMessage);
        stopWaitingForEnd();
        if (error) reject(error);
        else resolve();
      };
    });
  }

  private readonly killAtExit = () => {
    this.child.kill('SIGKILL');
    fs.rmSync(this.folder, { recursive: true, force: true });
  };
}

/** `exit code 70`, `signal SIGKILL`. */
export function describeEnd(end: ProcessEnd): string {
  return end.signal ? `signal ${end.signal}` : `exit code ${end.code}`;
}

function readVerdict(file: string): WatchdogVerdict | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as WatchdogVerdict;
  } catch {
    return null;
  }
}

/** The compiled .js next to this module, or — running from sources (tests, benches) — the .ts. */
function workerEntry(): string {
  const here = import.meta.url;
  const name = here.endsWith('.ts') ? './extract-worker.ts' : './extract-worker.js';
  return fileURLToPath(new URL(name, here));
}

/** Running from sources, the process loads TypeScript through tsx. */
function loaderArgs(): string[] {
  return import.meta.url.endsWith('.ts') ? ['--import', import.meta.resolve('tsx')] : [];
}
