// `groove index --progress`: a bar per stage (files, then embeddings) with rate and ETA, redrawn in place on a
// TTY; on a pipe or file, one plain line per 5% step of each stage. Warnings print on their own lines.
import type { IndexEvent } from '../app/index.js';
import { renderIndexEvent } from './render-index.js';

const BAR_WIDTH = 20;
/** A TTY redraw at most this often (the last state of a stage is always drawn). */
const REDRAW_INTERVAL_MS = 100;
/** Plain lines: one each time a stage crosses a multiple of this percentage. */
const PLAIN_STEP_PERCENT = 5;

interface StageState {
  label: string;
  unit: string;
  done: number;
  total: number;
  startedAt: number;
}

export interface ProgressOptions {
  tty: boolean;
  now?: () => number;
}

/** Returns a sink for index events that writes progress to `write` (stderr). */
export function createIndexProgress(
  write: (text: string) => void,
  options: ProgressOptions,
): (event: IndexEvent) => void {
  const now = options.now ?? Date.now;
  let stage: StageState | null = null;
  let lastDrawAt = Number.NEGATIVE_INFINITY;
  let lastStep = -1;
  /** A TTY line is open (drawn with \r, not yet ended with a newline). */
  let lineOpen = false;

  const draw = (force: boolean) => {
    if (!stage) return;
    if (options.tty) {
      if (!force && now() - lastDrawAt < REDRAW_INTERVAL_MS) return;
      lastDrawAt = now();
      write(`\r${renderStageBar(stage, now())}\x1b[K`);
      lineOpen = true;
      return;
    }
    const step = stepOf(stage);
    if (step === lastStep && !force) return;
    lastStep = step;
    write(`${renderStageLine(stage, now())}\n`);
  };
  const endLine = () => {
    if (lineOpen) write('\n');
    lineOpen = false;
  };
  const begin = (next: StageState) => {
    endLine();
    stage = next;
    lastStep = -1;
    draw(true);
  };

  return (event) => {
    switch (event.kind) {
      case 'start':
        begin({ label: 'Files', unit: 'files', done: 0, total: event.totalFiles, startedAt: now() });
        return;
      case 'embed-start':
        begin({ label: 'Embedding', unit: 'chunks', done: 0, total: event.total, startedAt: now() });
        return;
      case 'embedded':
        if (stage?.label !== 'Embedding') return;
        stage.done = event.done;
        draw(event.done >= event.total);
        return;
      case 'warning':
      case 'skipped':
        endLine();
        write(`${renderIndexEvent(event)}\n`);
        if (event.kind === 'skipped') advanceFiles();
        draw(options.tty); // a TTY bar is redrawn below the warning; a plain line only on a new step
        return;
      case 'file':
      case 'unchanged':
        advanceFiles();
        draw(stage !== null && stage.done >= stage.total);
        return;
      case 'deleted':
        return;
    }
  };

  function advanceFiles(): void {
    if (stage?.label === 'Files') stage.done++;
  }
}

/** Close an open TTY line once the run is over, so the summary starts on its own line. */
export function finishProgress(write: (text: string) => void, tty: boolean): void {
  if (tty) write('\n');
}

function stepOf(stage: StageState): number {
  if (stage.total === 0) return 100;
  return Math.floor(((stage.done / stage.total) * 100) / PLAIN_STEP_PERCENT);
}

/** `Embedding [#####---------------]  1200/10000  12%  8.4 chunks/s  ETA 17m 28s` */
export function renderStageBar(stage: StageState, now: number): string {
  const fraction = stage.total === 0 ? 1 : Math.min(1, stage.done / stage.total);
  const filled = Math.round(fraction * BAR_WIDTH);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
  return `${stage.label.padEnd(9)} ${bar} ${stage.done}/${stage.total} ${Math.floor(fraction * 100)}%${rateAndEta(stage, now)}`;
}

/** `Embedding: 1200/10000 (12%), 8.4 chunks/s, ETA 17m 28s` */
export function renderStageLine(stage: StageState, now: number): string {
  const percent = stage.total === 0 ? 100 : Math.floor((stage.done / stage.total) * 100);
  const tail = rateAndEta(stage, now).trim().split('  ').join(', ');
  return `${stage.label}: ${stage.done}/${stage.total} (${percent}%)${tail ? `, ${tail}` : ''}`;
}

/** Rate since the stage began and the time the rest takes at that rate; empty until there is a rate. */
function rateAndEta(stage: StageState, now: number): string {
  const seconds = (now - stage.startedAt) / 1000;
  if (stage.done === 0 || seconds < 0.5) return '';
  const rate = stage.done / seconds;
  const left = stage.total - stage.done;
  const eta = left > 0 ? `  ETA ${formatDuration(left / rate)}` : '';
  return `  ${formatRate(rate)} ${stage.unit}/s${eta}`;
}

function formatRate(rate: number): string {
  return rate >= 100 ? String(Math.round(rate)) : rate.toFixed(1);
}

/** `45s`, `17m 28s`, `2h 05m`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
