// A gate contender for the concurrency tests (`node --import tsx gate-churn.ts GATE COUNTER N`): takes the file
// gate N times and, while holding it, does a deliberately non-atomic read-increment-write of COUNTER. Prints one
// line per failed take and exits 1 if any failed. Test-only.
import fs from 'node:fs';
import { withFileGate } from '../../src/store/file-gate.js';

const [gatePath, counterPath, rounds] = process.argv.slice(2);
let failures = 0;
for (let i = 0; i < Number(rounds); i++) {
  try {
    await withFileGate(gatePath!, async () => {
      const seen = Number(fs.readFileSync(counterPath!, 'utf8'));
      await new Promise((resolve) => setImmediate(resolve));
      fs.writeFileSync(counterPath!, String(seen + 1));
    });
  } catch (error) {
    failures++;
    process.stdout.write(`failed: ${(error as Error).message}\n`);
  }
}
process.exitCode = failures === 0 ? 0 : 1;
