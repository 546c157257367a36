// `npm run bench`: every benchmark in turn, each as its own process so one's memory and JIT state cannot skew another.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const benchDir = import.meta.dirname;
/** Each suite with its arguments; first-index is the longest (about 15 minutes on two cores). */
const suites: [file: string, ...args: string[]][] = [
  ['index-speed.ts'],
  ['embed-speed.ts'],
  ['first-index.ts', '--chunks', '10000', '--baseline', '2000'],
  ['search-speed.ts'],
  ['serve-speed.ts'],
  ['lexical-quality.ts'],
];
const failed: string[] = [];
for (const [suite, ...args] of suites) {
  const file = path.join(benchDir, suite);
  if (!fs.existsSync(file)) {
    process.stderr.write(`bench: ${suite} is missing, skipped\n`);
    continue;
  }
  process.stderr.write(`\n=== ${suite} ===\n`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', file, ...args], { stdio: 'inherit' });
  if (run.status !== 0) failed.push(suite);
}
if (failed.length > 0) {
  process.stderr.write(`bench: broken setup in ${failed.join(', ')}\n`);
  process.exitCode = 1;
}
