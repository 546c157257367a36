// Flag value parsers shared by the commands. Each refuses a bad value with INVALID_ARGUMENT (exit 2) naming the
// flag, the value and the allowed range; bounds match the config schema's, so a flag can never ask for more.
import { GrooveError } from '../errors.js';

/** The largest --limit and --k (the search limit's bound: a cut-off past the pool answers nothing more). */
export const MAX_CUTOFF = 1000;
/** The deepest `groove tune --limit` (the tuner re-ranks each query's whole pool in memory; it checks it too). */
export const MAX_TUNE_LIMIT = 10_000;
/** The most k values one run reports (the `[eval] k_values` bound). */
export const MAX_K_VALUES = 16;

export function usageError(command: string, message: string): GrooveError {
  return new GrooveError('INVALID_ARGUMENT', message, { hint: `see \`groove ${command} --help\`` });
}

/** An integer from 1 to `max`. */
export function parseBoundedInt(command: string, flag: string, max: number) {
  return (value: string): number => {
    const text = value.trim();
    const n = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < 1 || n > max) {
      throw usageError(command, `${flag} "${value}" must be a whole number from 1 to ${max}`);
    }
    return n;
  };
}

/** A comma-separated list of distinct cut-offs like `1,5,10`, each from 1 to MAX_CUTOFF. */
export function parseKList(command: string) {
  const parseOne = parseBoundedInt(command, '--k', MAX_CUTOFF);
  return (value: string): number[] => {
    const parts = value.split(',').map((s) => s.trim());
    if (parts.some((s) => s === ''))
      throw usageError(command, `--k "${value}" must be a comma-separated list like 1,5,10`);
    const ks = parts.map(parseOne);
    if (ks.length > MAX_K_VALUES)
      throw usageError(command, `--k lists ${ks.length} values; at most ${MAX_K_VALUES}`);
    const repeated = ks.find((k, i) => ks.indexOf(k) !== i);
    if (repeated !== undefined) throw usageError(command, `--k "${value}" lists ${repeated} twice`);
    return ks;
  };
}
