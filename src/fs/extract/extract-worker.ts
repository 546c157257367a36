// The extraction process: a child of groove (started by extraction-process.ts) that serves one job at a time over
// its IPC channel. For each job it first loads the format's libraries and says so (`loaded`), and the parent starts
// the job's deadline only then: a process is never stopped while a library (pdf.js's native canvas addon) is
// still initialising. A watchdog thread (extract-watchdog.ts) bounds its memory and temp files. Parser libraries
// log to the console: it is silenced (the process's stdout and stderr lead nowhere either).
import fs from 'node:fs';
import type { ExtractJob, ExtractOutcome } from './extract-job.js';
import { loadExtractor, runLoadedExtractor } from './extract-run.js';
import { startWatchdog, type WatchdogSettings } from './extract-watchdog.js';

export type WorkerRequest = { seq: number; job: ExtractJob };
export type WorkerReply =
  | { seq: number; outcome: ExtractOutcome; rssBytes: number }
  | { seq: number; loaded: true }
  | { ready: true };

/** What the parent hands the process as its one argument (JSON). */
export interface WorkerSettings {
  watchdog: WatchdogSettings;
  /** Tests: a module whose `extract(job)` replaces the real extractors (a parser that hangs or crashes). */
  extractorModule?: string;
}

const settings = JSON.parse(process.argv[2] ?? '{}') as WorkerSettings;
startWatchdog(settings.watchdog);

const quiet = () => {};
console.log = quiet;
console.info = quiet;
console.warn = quiet;
console.debug = quiet;
console.error = quiet;

const replacement: ((job: ExtractJob) => Promise<ExtractOutcome>) | null = settings.extractorModule
  ? (await import(settings.extractorModule)).extract
  : null;

function reply(message: WorkerReply): void {
  // A parent that is gone cannot be answered; the watchdog ends the process.
  process.send?.(message, undefined, undefined, () => {});
}

async function serve(request: WorkerRequest): Promise<ExtractOutcome> {
  if (replacement) {
    reply({ seq: request.seq, loaded: true });
    return replacement(request.job);
  }
  let extract: Awaited<ReturnType<typeof loadExtractor>>;
  try {
    extract = await loadExtractor(request.job);
  } catch (error) {
    return { ok: false, reason: 'crashed', detail: `its parser could not be loaded (${String(error)})` };
  }
  reply({ seq: request.seq, loaded: true });
  return runLoadedExtractor(extract, request.job);
}

process.on('message', (request: WorkerRequest) => {
  void serve(request)
    .catch(
      (error: unknown): ExtractOutcome => ({
        ok: false,
        reason: 'crashed',
        detail: `its parser failed (${String(error)})`,
      }),
    )
    .then((outcome) => reply({ seq: request.seq, outcome, rssBytes: process.memoryUsage.rss() }));
});
// The parent closed the channel (it is exiting): leave nothing behind. With the channel gone nothing keeps the
// process alive, so it ends once any job in progress returns (the watchdog ends it at once if the parent is gone).
process.on('disconnect', () => fs.rmSync(settings.watchdog.folder, { recursive: true, force: true }));
reply({ ready: true });
