// One writer per index: a lock file next to the DB holding the writer's pid; a dead writer's lock is taken over.
import fs from 'node:fs';
import { GrooveError } from '../errors.js';

export interface IndexLock {
  release(): void;
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Take `<db>.lock` or throw INDEX_BUSY naming the pid that holds it. */
export function acquireIndexLock(dbPath: string): IndexLock {
  const lockPath = `${dbPath}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, `${process.pid}\n`);
      fs.closeSync(fd);
      return { release: () => fs.rmSync(lockPath, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isProcessAlive(holder)) {
        throw new GrooveError('INDEX_BUSY', `index "${dbPath}" is being written by process ${holder}`, {
          hint: 'wait for that run to finish, or stop it; the lock is released when it exits',
        });
      }
      fs.rmSync(lockPath, { force: true }); // stale: its writer is gone
    }
  }
  throw new GrooveError('INDEX_BUSY', `could not take the lock "${lockPath}"`, {
    hint: 'remove the file if no groove is running',
  });
}
