// Download progress for model files: the event type the model layer emits, and a renderer that turns the
// events into a progress bar on a stderr-like stream (a redrawn line on a TTY, sparse lines otherwise).

export type ModelProgressEvent =
  | { kind: 'download-start'; model: string; file: string }
  | { kind: 'download-progress'; model: string; file: string; loadedBytes: number; totalBytes: number }
  | { kind: 'download-done'; model: string; file: string }
  | { kind: 'download-retry'; model: string; file: string; reason: string; delayMs: number };

export type ModelProgressListener = (event: ModelProgressEvent) => void;

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface ProgressRendererOptions {
  /** Minimum time between redraws on a TTY. Default 100 ms. */
  redrawIntervalMs?: number;
  /** Clock, injectable for tests. */
  now?: () => number;
}

const BAR_WIDTH = 24;

function formatMB(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}

export function formatProgressLine(
  event: Extract<ModelProgressEvent, { kind: 'download-progress' }>,
): string {
  const known = event.totalBytes > 0;
  const fraction = known ? Math.min(1, event.loadedBytes / event.totalBytes) : 0;
  const filled = Math.round(fraction * BAR_WIDTH);
  const bar = known
    ? `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${Math.floor(fraction * 100)}%`
    : '';
  const size = known
    ? `${formatMB(event.loadedBytes)}/${formatMB(event.totalBytes)} MB`
    : `${formatMB(event.loadedBytes)} MB`;
  return `downloading ${event.model} ${event.file} ${bar} ${size}`.replace(/ {2,}/g, ' ');
}

/**
 * A listener that draws download progress on `stream`. On a TTY one line per file is redrawn in place;
 * otherwise (CI logs, pipes) it prints the start, each further 25%, and the end, so logs stay short. A file is
 * announced only once bytes arrive: a hub that cannot be reached shows its error, not a download that never began.
 */
export function createProgressRenderer(
  stream: ProgressStream,
  options: ProgressRendererOptions = {},
): ModelProgressListener {
  const interval = options.redrawIntervalMs ?? 100;
  const now = options.now ?? (() => Date.now());
  let lastDrawMs = Number.NEGATIVE_INFINITY;
  const lastQuarter = new Map<string, number>();
  const unannounced = new Set<string>();
  return (event) => {
    const key = `${event.model}/${event.file}`;
    if (event.kind === 'download-start') {
      lastQuarter.set(key, 0);
      if (!stream.isTTY) unannounced.add(key);
      return;
    }
    if (event.kind !== 'download-retry' && unannounced.delete(key))
      stream.write(`downloading ${event.model} ${event.file}\n`);
    if (event.kind === 'download-retry') {
      const line = `retrying ${event.model} ${event.file} in ${(event.delayMs / 1000).toFixed(1)} s: ${event.reason}`;
      stream.write(stream.isTTY ? `\r\x1b[2K${line}\n` : `${line}\n`);
      return;
    }
    if (event.kind === 'download-done') {
      if (stream.isTTY) stream.write(`\r\x1b[2Kdownloaded ${event.model} ${event.file}\n`);
      else stream.write(`downloaded ${event.model} ${event.file}\n`);
      return;
    }
    if (stream.isTTY) {
      if (now() - lastDrawMs < interval) return;
      lastDrawMs = now();
      stream.write(`\r\x1b[2K${formatProgressLine(event)}`);
      return;
    }
    if (event.totalBytes <= 0) return;
    const quarter = Math.floor((event.loadedBytes / event.totalBytes) * 4);
    if (quarter > (lastQuarter.get(key) ?? 0) && quarter < 4) {
      lastQuarter.set(key, quarter);
      stream.write(`${formatProgressLine(event)}\n`);
    }
  };
}
