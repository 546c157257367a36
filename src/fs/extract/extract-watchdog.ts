// The watchdog thread inside the extraction process. Every few milliseconds it reads the process's resident set
// size — the whole process: JavaScript heap, native buffers and WebAssembly memory alike — and the size of the
// process's private temp folder. Past either bound it writes why into the verdict file and kills its own process
// with SIGKILL: nothing inside can run on past that, and the operating system takes back all of its memory. A
// thread of its own samples even while the parser holds the process's event loop (a long inflate, a WebAssembly
// parse), and the parent's event loop plays no part. When the parent is gone it removes the process's folder and
// ends the process, so no extraction outlives the groove that started it.
import { Worker } from 'node:worker_threads';

export interface WatchdogSettings {
  /** RSS the process may reach; past it the process is killed. */
  maxRssBytes: number;
  /** Bytes of files the process may hold in tempDir; past it the process is killed. */
  maxTempBytes: number;
  /** The process's own folder (tempDir is inside it); removed when the parent is gone. */
  folder: string;
  tempDir: string;
  verdictFile: string;
  parentPid: number;
  everyMs: number;
}

/** What the watchdog saw when it stopped the process (read by the parent from the verdict file). */
export interface WatchdogVerdict {
  kind: 'memory' | 'temp';
  bytes: number;
}

// Plain JavaScript run as the thread's script (`eval`), so it needs no file of its own next to the bundle.
const WATCHDOG_SOURCE = `
const fs = require('node:fs');
const path = require('node:path');
const { workerData: settings } = require('node:worker_threads');

function folderBytes(folder) {
  let total = 0;
  let entries = [];
  try {
    entries = fs.readdirSync(folder, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    try {
      if (entry.isDirectory()) total += folderBytes(full);
      else total += fs.lstatSync(full).size;
    } catch {}
  }
  return total;
}

function stop(verdict) {
  try {
    fs.writeFileSync(settings.verdictFile, JSON.stringify(verdict));
  } catch {}
  process.kill(process.pid, 'SIGKILL');
}

setInterval(() => {
  if (process.ppid !== settings.parentPid) {
    try {
      fs.rmSync(settings.folder, { recursive: true, force: true });
    } catch {}
    process.kill(process.pid, 'SIGKILL');
  }
  const rss = process.memoryUsage.rss();
  if (rss > settings.maxRssBytes) return stop({ kind: 'memory', bytes: rss });
  const temp = folderBytes(settings.tempDir);
  if (temp > settings.maxTempBytes) stop({ kind: 'temp', bytes: temp });
}, settings.everyMs);
`;

/** Start the watchdog thread (it keeps nothing alive on its own). */
export function startWatchdog(settings: WatchdogSettings): void {
  new Worker(WATCHDOG_SOURCE, { eval: true, workerData: settings }).unref();
}
