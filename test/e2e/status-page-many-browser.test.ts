// The status page of a server of several KBs in a real browser (Debian's Chromium driven by playwright-core) at a
// laptop's 1280×900: the KB list shows every KB with its documents, chunks and health (a missing KB's folder,
// markup in it, shown as text); the search box, still above the fold, searches every KB, each hit naming its
// KB; picking one KB in the picker narrows the hits to it. The screenshot goes to the temp folder
// (groove-status-page-kbs-1280x900.png; its path is printed). Skipped, saying why, only when no Chromium is
// installed.
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, findChromium, missingChromiumReason } from '../support/chromium.js';
import {
  HOSTILE_MISSING_PATH,
  type ManyKbStatusPage,
  serveManyKbStatusPage,
} from '../support/status-page-many-fixture.js';

const SHOT = path.join(os.tmpdir(), 'groove-status-page-kbs-1280x900.png');
const executablePath = findChromium();
const why = missingChromiumReason();
if (!executablePath) process.stderr.write(`several-KB status page browser test skipped: ${why}\n`);

const title = executablePath
  ? 'the status page of several KBs in Chromium'
  : `the status page of several KBs in Chromium (skipped: ${why})`;

describe.skipIf(!executablePath)(title, () => {
  let browser: Browser | null = null;
  let server: ManyKbStatusPage | null = null;

  beforeAll(async () => {
    server = await serveManyKbStatusPage({ missing: true });
    browser = await chromium.launch({
      executablePath: executablePath!,
      args: CHROMIUM_FLAGS,
      timeout: 30_000,
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The KB names of the hits shown, in order. */
  const hitKbs = (page: Page) => page.locator('#results li.hit .kb').allTextContents();

  async function searchFor(page: Page, query: string): Promise<void> {
    const answered = page.waitForResponse((r) => r.url().includes('/api/search?'));
    await page.fill('#search-input', query);
    await page.press('#search-input', 'Enter');
    await answered;
    await expect.poll(() => page.locator('#search-status').textContent()).toMatch(/^\d+ results?/);
  }

  it('lists every KB, searches them all with each hit naming its KB, and narrows to the KB picked', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      await page.goto(`http://127.0.0.1:${server!.port}/ui`);

      const rows = page.locator('#kbs tbody tr');
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(3);
      expect(await page.locator('#kbs-panel').isVisible()).toBe(true);
      const cells = await rows.evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
      );
      expect(cells[0]).toEqual([`alpha ${server!.kbs[0]!.kb.kbPath}`, '3', '3', 'ok']);
      expect(cells[1]).toEqual([`beta ${server!.kbs[1]!.kb.kbPath}`, '2', '2', 'ok']);
      expect(cells[2]![0]).toContain(HOSTILE_MISSING_PATH); // the folder's markup, shown as text
      expect(cells[2]!.slice(1)).toEqual(['-', '-', 'folder missing']);
      expect(await page.locator('#kbs-note').textContent()).toBe('The panels below show alpha.');
      const options = await page.locator('#kb-select option').allTextContents();
      expect(options).toEqual(['all KBs', 'alpha', 'beta', 'gamma']);
      expect(await page.locator('#kb-select').inputValue()).toBe('');

      // Layout: the search box above the fold, the KB list beside the search (the width used).
      const box = (await page.locator('#search-input').boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(900);
      const search = (await page.locator('#search-panel').boundingBox())!;
      const kbs = (await page.locator('#kbs-panel').boundingBox())!;
      expect(kbs.x).toBeGreaterThanOrEqual(search.x + search.width);
      expect(kbs.x + kbs.width).toBeGreaterThan(1280 * 0.9);

      await searchFor(page, 'kestrel');
      expect((await hitKbs(page)).sort()).toEqual(['alpha', 'alpha', 'alpha', 'beta', 'beta']);
      expect(await page.locator('#search-status').textContent()).toMatch(/not searched: gamma: its folder /);
      await page.screenshot({ path: SHOT });
      process.stderr.write(`several-KB status page screenshot: ${SHOT}\n`);

      await page.selectOption('#kb-select', 'beta');
      await searchFor(page, 'kestrel');
      expect(await hitKbs(page)).toEqual(['beta', 'beta']);
      expect((await page.locator('#results li.hit .path').allTextContents()).sort()).toEqual([
        'beta/note-1.md',
        'beta/note-2.md',
      ]);

      // The picked KB stays picked across the page's status polls.
      await page.evaluate('new Promise((done) => setTimeout(done, 5500))');
      expect(await page.locator('#kb-select').inputValue()).toBe('beta');

      expect(await page.locator('img, script:not([src]), iframe').count()).toBe(0);
      expect(await page.evaluate('window.__pwned')).toBeUndefined();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
