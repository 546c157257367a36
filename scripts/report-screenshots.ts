// Makes the screenshots docs/eval.md shows — docs/img/eval-report.png and docs/img/tune-report.png — from a run
// on the report test fixture (a lexical-only KB with an eval history), through Debian's Chromium.
// Usage: npx tsx scripts/report-screenshots.ts   (GROOVE_CHROMIUM=/path/to/chromium to pick the browser)
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { findChromium, launchChromium, missingChromiumReason } from '../test/support/chromium.js';
import { createReportKb, seedHistory } from '../test/support/report-fixture.js';

const OUT = path.resolve(import.meta.dirname, '../docs/img');
/** Each picture shows the top of its page at this height, which keeps it under 300 KB. */
const HEIGHT_PX = { eval: 2200, tune: 1600 } as const;

const executablePath = findChromium();
if (!executablePath) {
  process.stderr.write(`report-screenshots: ${missingChromiumReason()}\n`);
  process.exitCode = 1;
} else {
  const fixture = await createReportKb();
  const browser = await launchChromium(executablePath);
  try {
    await seedHistory(fixture);
    fs.mkdirSync(OUT, { recursive: true });
    for (const command of ['eval', 'tune'] as const) {
      const file = path.join(fixture.root, `${command}-report.html`);
      const args = [command, '--kb-path', fixture.kb, '--golden', fixture.golden, '--report', file];
      const run = await fixture.groove(args);
      if (run.code !== 0) throw new Error(`groove ${command} failed: ${run.stderr}`);
      const page = await browser.context.newPage();
      await page.setViewportSize({ width: 1200, height: HEIGHT_PX[command] });
      await page.goto(pathToFileURL(file).href);
      const target = path.join(OUT, `${command}-report.png`);
      await page.screenshot({ path: target });
      process.stdout.write(
        `wrote ${path.relative(process.cwd(), target)} (${fs.statSync(target).size} bytes)\n`,
      );
      await page.close();
    }
  } finally {
    await browser.close();
    fixture.cleanup();
  }
}
