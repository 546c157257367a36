// `--compare RUN_ID|PATH`: the baseline a run is compared with when the user names it, found in the eval history
// or read from a JSON file written by `groove eval --format json` (or a history file).

import { GrooveError } from '../../errors.js';
import type { EvalRun } from '../../measure/eval-run.js';
import type { ReadCheckedFile } from '../golden/index.js';
import { MAX_HISTORY_BYTES } from './eval-history.js';
import { evalRunFromJson } from './eval-run-reader.js';

/** What `--compare` names: a run of the history by its timestamp (or a unique prefix of it), else a file. */
export interface CompareTarget {
  /** The value as typed. */
  id: string;
  /** The same value resolved as a path against the working directory. */
  path: string;
}

/**
 * Resolve --compare: a history run whose timestamp equals or uniquely starts with the value, else a JSON file —
 * a `groove eval --format json` report, or a history file (its newest run).
 */
export function resolveCompareTarget(
  target: CompareTarget,
  runs: readonly EvalRun[],
  read: ReadCheckedFile,
): EvalRun {
  const exact = runs.find((r) => r.timestamp === target.id);
  if (exact) return exact;
  const prefixed = runs.filter((r) => r.timestamp.startsWith(target.id));
  if (prefixed.length === 1) return prefixed[0]!;
  if (prefixed.length > 1) {
    throw compareError(
      `--compare "${target.id}" matches ${prefixed.length} runs of the history`,
      'give more of the timestamp',
    );
  }
  const file = read(target.path, { maxBytes: MAX_HISTORY_BYTES });
  if (!file.ok) {
    const known = runs
      .slice(0, 5)
      .map((r) => r.timestamp)
      .join(', ');
    throw compareError(
      `--compare "${target.id}" is neither a run of the eval history nor a readable file (${file.detail})`,
      known
        ? `runs in the history: ${known}`
        : 'the history is empty; pass a JSON file written by `groove eval --format json`',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(file.bytes).toString('utf8'));
  } catch (cause) {
    throw compareError(`--compare file "${target.path}" is not JSON (${(cause as Error).message})`);
  }
  const stored = Array.isArray((value as { runs?: unknown })?.runs)
    ? (value as { runs: unknown[] }).runs[0]
    : value;
  const run = stored === undefined ? null : evalRunFromJson(stored);
  if (!run || run.perQuery.length === 0) {
    throw compareError(`--compare file "${target.path}" holds no eval run with per-query results`);
  }
  return run;
}

function compareError(message: string, hint?: string): GrooveError {
  return new GrooveError('INVALID_ARGUMENT', message, {
    hint: hint ?? 'pass a run timestamp from the history, or a file written by `groove eval --format json`',
  });
}
