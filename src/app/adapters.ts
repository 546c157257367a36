// The composition root's file-system ports: the use cases get these functions, never the adapters themselves.
import { describeUnwritableTarget, writeFileAtomic } from '../fs/atomic-write.js';
import { readCheckedFile } from '../fs/checked-read.js';
import { readLineRange } from '../fs/line-range.js';
import { gatePathFor, withFileGate } from '../store/file-gate.js';

/** How use cases read and write files outside the index, and take turns on a shared file. */
export interface FilePorts {
  readFile: typeof readCheckedFile;
  write: typeof writeFileAtomic;
  /** Why a new file cannot be written at a path (missing folder, a folder in the way), or null. */
  unwritable: typeof describeUnwritableTarget;
  /** Run work while holding `<target>.gate` (one holder at a time across processes). */
  withGate<T>(target: string, work: () => T | Promise<T>, guards: string): Promise<T>;
  /** The lines a byte range of a KB file spans, or null when the file changed since it was indexed. */
  lineRange: typeof readLineRange;
}

export const filePorts: FilePorts = {
  readFile: readCheckedFile,
  write: writeFileAtomic,
  unwritable: describeUnwritableTarget,
  withGate: (target, work, guards) => withFileGate(gatePathFor(target), work, { guards }),
  lineRange: readLineRange,
};
