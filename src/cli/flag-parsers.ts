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

/** An integer from `min` (default 1) to `max`. */
export function parseBoundedInt(command: string, flag: string, max: number, min = 1) {
  return (value: string): number => {
    const text = value.trim();
    const n = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw usageError(command, `${flag} "${value}" must be a whole number from ${min} to ${max}`);
    }
    return n;
  };
}

/** Any finite number (the request's own validation then applies its range). */
export function parseFiniteNumber(command: string, flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n))
      throw usageError(command, `${flag} "${value}" is not a finite number`);
    return n;
  };
}

/** A number from 0 to 1. */
export function parseUnit(command: string, flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
      throw usageError(command, `${flag} "${value}" must be a number from 0 to 1`);
    return n;
  };
}

/** One of `values`, as written. */
export function parseChoice<T extends string>(command: string, flag: string, values: readonly T[]) {
  return (value: string): T => {
    if ((values as readonly string[]).includes(value)) return value as T;
    throw usageError(command, `${flag} "${value}" must be one of ${values.join(', ')}`);
  };
}

/** true/false, 1/0, yes/no, on/off (any case). */
export function parseBool(command: string, flag: string) {
  return (value: string): boolean => {
    if (/^(true|1|yes|on)$/i.test(value)) return true;
    if (/^(false|0|no|off)$/i.test(value)) return false;
    throw usageError(command, `${flag} "${value}" must be true or false`);
  };
}

/** A comma-separated list of non-empty names like `core,rerank`. */
export function parseNameList(command: string, flag: string, example: string) {
  return (value: string): string[] => {
    const names = value.split(',').map((s) => s.trim());
    if (names.some((s) => s === ''))
      throw usageError(command, `${flag} "${value}" must be a comma-separated list like ${example}`);
    return names;
  };
}

/** A repeatable flag: each use adds one value. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
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
