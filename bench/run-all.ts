// `npm run bench`: every benchmark in turn, each as its own process so one's memory and JIT state cannot skew another.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const benchDir = import.meta.dirname;
const suites = [
  'index-speed.ts',
  'embed-speed.ts',
  'search-speed.ts',
  'serve-speed.ts',
  'lexical-quality.ts',
];
const failed: string[] = [];
for (const suite of suites) {
  const file = path.join(benchDir, suite);
  if (!fs.existsSync(file)) {
    process.stderr.write(`bench: ${suite} is missing, skipped\n`);
    continue;
  }
  process.stderr.write(`\n=== ${suite} ===\n`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' });
  if (run.status !== 0) failed.push(suite);
}
if (failed.length > 0) {
  process.stderr.write(`bench: broken setup in ${failed.join(', ')}\n`);
  process.exitCode = 1;
}
