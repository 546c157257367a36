// Byte sizes as groove.toml writes them: a count, or a number with a unit.
import { GrooveError } from '../errors.js';

export const MIB = 1024 * 1024;

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  kib: 1024,
  mib: MIB,
  gib: 1024 * MIB,
};

/** Parse `52428800`, `"50MiB"`, `"20MB"` into bytes. */
export function parseByteSize(value: number | string): number {
  if (typeof value === 'number') return value;
  const match = /^\s*(\d+)\s*([a-z]*)\s*$/i.exec(value);
  const factor = match ? UNITS[match[2]!.toLowerCase()] : undefined;
  if (!match || factor === undefined) {
    throw new GrooveError('CONFIG_INVALID', `size "${value}" is not understood`, {
      hint: 'write e.g. "50MiB"',
    });
  }
  return Number(match[1]) * factor;
}
