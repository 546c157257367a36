// A second process for the concurrency tests (`node --import tsx hold-lock.ts index|gate PATH`): takes groove's
// writer lock of the index at PATH, or the file gate at PATH, prints "held", and lets go when its stdin closes.
// Killed while holding, it shows what a crashed holder leaves behind. Test-only.
import { acquireIndexLock } from '../../src/app/indexing/index-lock.js';
import { withFileGate } from '../../src/store/file-gate.js';

const [kind, target] = process.argv.slice(2);
const stdinClosed = new Promise<void>((resolve) => {
  process.stdin.on('end', resolve);
  process.stdin.on('close', resolve);
  process.stdin.resume();
});

if (kind === 'index' && target) {
  const lock = acquireIndexLock(target);
  process.stdout.write('held\n');
  await stdinClosed;
  lock.release();
} else if (kind === 'gate' && target) {
  await withFileGate(target, async () => {
    process.stdout.write('held\n');
    await stdinClosed;
  });
} else {
  process.stderr.write('usage: hold-lock.ts index|gate PATH\n');
  process.exitCode = 2;
}
