// The composition root's file-system ports: the use cases get these functions, never the adapters themselves.
import { writeFileAtomic } from '../fs/atomic-write.js';
import { readCheckedFile } from '../fs/checked-read.js';
import { gatePathFor, withFileGate } from '../store/file-gate.js';

/** How use cases read and write files outside the index, and take turns on a shared file. */
export interface FilePorts {
  readFile: typeof readCheckedFile;
  write: typeof writeFileAtomic;
  /** Run work while holding `<target>.gate` (one holder at a time across processes). */
  withGate<T>(target: string, work: () => T | Promise<T>, guards: string): Promise<T>;
}

export const filePorts: FilePorts = {
  readFile: readCheckedFile,
  write: writeFileAtomic,
  withGate: (target, work, guards) => withFileGate(gatePathFor(target), work, { guards }),
};
