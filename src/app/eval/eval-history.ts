// The eval history, kept in the KB's own folder under groove's data folder: newest run first, bounded by count and
// by bytes. A file that cannot be read stops the run (saving over it would erase every baseline); bytes that do
// not parse held no baseline, so they start a fresh history with a warning. A history older versions kept inside
// the KB (`<kb>/.groove-eval-history.json`) is read while the new one does not exist yet, and never written.
import path from 'node:path';
import { GrooveError } from '../../errors.js';
import type { EvalRun } from '../../measure/eval-run.js';
import type { ReadCheckedFile } from '../golden/index.js';
import { evalRunToJson } from './eval-run-json.js';
import { evalRunFromJson } from './eval-run-reader.js';

export const HISTORY_FILE_NAME = '.groove-eval-history.json';
/** Ten runs of 100 queries at limit 10 take ~2.4 MiB; 64 MiB still bounds a file that is not a history. */
export const MAX_HISTORY_BYTES = 64 * 1024 * 1024;

export interface EvalHistory {
  path: string;
  /** Parsed runs, newest first. */
  runs: EvalRun[];
  /** The same runs as stored, written back verbatim so fields from newer versions survive a rewrite. */
  stored: unknown[];
  /** Why the history was started fresh, when it was. */
  warnings: string[];
  /** The history an older version kept inside the KB, read while `path` does not exist yet. */
  legacyPath: string | null;
}

/** Where versions before groove's own data folder kept the eval history: inside the KB. */
export function legacyHistoryPathOf(kbPath: string): string {
  return path.join(kbPath, HISTORY_FILE_NAME);
}

interface LoadHistoryOptions {
  read: ReadCheckedFile;
  maxBytes?: number;
  legacyPath?: string | null;
}

/** The history at `historyPath`; while it does not exist, the one at `legacyPath` (saved to `historyPath`). */
export function loadEvalHistory(historyPath: string, options: LoadHistoryOptions): EvalHistory {
  const legacyPath = options.legacyPath ?? null;
  const own = loadHistoryFile(historyPath, options);
  if (own !== 'vanished') return { ...own, legacyPath };
  const legacy = legacyPath === null ? 'vanished' : loadHistoryFile(legacyPath, options);
  if (legacy === 'vanished') return { path: historyPath, runs: [], stored: [], warnings: [], legacyPath };
  const moved = `eval history read from "${legacyPath}"; groove now keeps it in "${historyPath}" (saved there from this run on; the old file can then be deleted)`;
  return { ...legacy, path: historyPath, legacyPath, warnings: [...legacy.warnings, moved] };
}

function loadHistoryFile(historyPath: string, options: LoadHistoryOptions): EvalHistory | 'vanished' {
  const empty = (warning?: string): EvalHistory => ({
    path: historyPath,
    runs: [],
    stored: [],
    warnings: warning ? [warning] : [],
    legacyPath: null,
  });
  const read = options.read(historyPath, { maxBytes: options.maxBytes ?? MAX_HISTORY_BYTES });
  if (!read.ok) {
    if (read.reason === 'vanished') return 'vanished';
    throw new GrooveError(
      'HISTORY_INVALID',
      `refusing to read the eval history "${historyPath}": ${read.detail}`,
      {
        hint: 'an unreadable history is never replaced; make it a regular file of its own, move it away, or pass --no-history',
      },
    );
  }
  const fresh = (why: string) =>
    empty(
      `eval history "${historyPath}" ${why}; starting a fresh history (it is overwritten when this run is saved)`,
    );
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(read.bytes));
  } catch (cause) {
    return fresh(`is not valid JSON (${(cause as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fresh('is not a JSON object');
  const runsValue = (value as { runs?: unknown }).runs ?? [];
  if (!Array.isArray(runsValue)) return fresh('has a `runs` field that is not a list');
  const runs: EvalRun[] = [];
  for (const [i, stored] of runsValue.entries()) {
    const run = evalRunFromJson(stored);
    if (!run) return fresh(`has a run (runs[${i}]) of the wrong shape`);
    runs.push(run);
  }
  return { path: historyPath, runs, stored: runsValue, warnings: [], legacyPath: null };
}

export interface HistoryWriteResult {
  path: string;
  /** Runs in the file after the write, the new one included. */
  keptRuns: number;
  /** Set when older runs had to go to stay under the byte cap. */
  warning: string | null;
}

/**
 * Put `run` in front (several runs — the rows of one `--rows` eval — newest first), keep `historySize` runs,
 * and drop the oldest until the file fits the byte cap the reader enforces — eval never writes a history it
 * would then refuse. A run that cannot fit on its own is an error (its numbers were already printed).
 */
export function saveEvalHistory(
  history: EvalHistory,
  run: EvalRun | readonly EvalRun[],
  options: { historySize: number; write: (filePath: string, text: string) => void; maxBytes?: number },
): HistoryWriteResult {
  const maxBytes = options.maxBytes ?? MAX_HISTORY_BYTES;
  const added = (Array.isArray(run) ? run : [run as EvalRun]).map((r) =>
    evalRunToJson(r, { forHistory: true }),
  );
  const entries = [...added, ...history.stored].slice(0, Math.max(1, options.historySize));
  const pieces = entries.map((entry) => `    ${JSON.stringify(entry, null, 2).replaceAll('\n', '\n    ')}`);
  const frame = Buffer.byteLength('{\n  "runs": [\n\n  ]\n}\n');
  let size = frame;
  let kept = 0;
  for (const piece of pieces) {
    const next = size + Buffer.byteLength(piece) + (kept > 0 ? 2 : 0);
    if (next > maxBytes) break;
    size = next;
    kept++;
  }
  if (kept === 0) {
    throw new GrooveError(
      'FILE_WRITE_FAILED',
      `eval history not written: this run alone serialises to ${frame + Buffer.byteLength(pieces[0]!)} bytes, over the ${maxBytes}-byte cap the history reader enforces`,
      { hint: 'use a smaller golden set or a lower --limit, or pass --no-history' },
    );
  }
  options.write(history.path, `{\n  "runs": [\n${pieces.slice(0, kept).join(',\n')}\n  ]\n}\n`);
  const warning =
    kept < entries.length
      ? `eval history trimmed to ${kept} run(s) to stay under the ${maxBytes}-byte cap; [eval] history_size asked for ${options.historySize}`
      : null;
  return { path: history.path, keptRuns: kept, warning };
}

/** What saving a run to the history needs: the size bound, the file ports and the history's gate. */
export interface HistoryPorts {
  historySize: number;
  read: ReadCheckedFile;
  write: (filePath: string, text: string) => void;
  withGate: <T>(historyPath: string, work: () => T) => Promise<T>;
  maxBytes?: number;
}

/**
 * Write the rows' runs to the history (no-op with --no-history): reference rows first, the decision row
 * newest. Under the history's gate (any process) the file is read again and the runs go in front of what it
 * holds NOW, so another eval that saved since this one started keeps its run.
 */
export function recordEvalRun(
  started: EvalHistory | null,
  runs: readonly EvalRun[],
  options: HistoryPorts,
): Promise<HistoryWriteResult | null> {
  if (!started) return Promise.resolve(null);
  return options.withGate(started.path, () => {
    const current = loadEvalHistory(started.path, {
      read: options.read,
      maxBytes: options.maxBytes,
      legacyPath: started.legacyPath,
    });
    const written = saveEvalHistory(current, runs, options);
    // A history that stopped parsing after this run started is replaced now: say so (the start was reported).
    const fresh = current.warnings.filter((w) => !started.warnings.includes(w));
    const warning = [...fresh, ...(written.warning ? [written.warning] : [])].join('; ');
    return { ...written, warning: warning === '' ? null : warning };
  });
}
