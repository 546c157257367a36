// The status page in a real browser: Debian's Chromium driven by playwright-core against the real HTTP server
// (token on, live sync on). The page takes the token from its address's fragment, shows the counts, the model,
// the doctor's verdict and the runs, follows a new file, and its search box shows title, path, heading, score and
// snippet — with hostile titles, headings and bodies shown as text: no element from them, no script run. At a
// laptop's 1280×900 the search box is above the fold, the panels use the width, an info finding is counted as
// info, and the marks in a snippet are whole words. Screenshots go to test-artifacts/status-page.png and
// test-artifacts/status-page-1280x900.png. Skipped, saying why, only when no Chromium is installed.
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, findChromium, missingChromiumReason } from '../support/chromium.js';
import { repoRoot } from '../support/mcp-fixture.js';
import {
  HOSTILE_HEADING,
  HOSTILE_NOTES,
  HOSTILE_TITLE,
  type StatusPageServer,
  serveStatusPage,
} from '../support/status-page-fixture.js';

const TOKEN = 'browser-test-token';
const ARTIFACTS = path.join(repoRoot, 'test-artifacts');
const executablePath = findChromium();
const why = missingChromiumReason();
if (!executablePath) process.stderr.write(`status page browser test skipped: ${why}\n`);

const title = executablePath
  ? 'the status page in Chromium'
  : `the status page in Chromium (skipped: ${why})`;

describe.skipIf(!executablePath)(title, () => {
  let browser: Browser | null = null;
  let server: StatusPageServer | null = null;
  let base = '';

  beforeAll(async () => {
    server = await serveStatusPage({ watch: true, http: { token: TOKEN } });
    base = `http://127.0.0.1:${server.port}`;
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

  /** A fresh tab (its own session storage) that records script errors and console errors. */
  async function openTab(): Promise<{ page: Page; problems: string[] }> {
    const context = await browser!.newContext({ viewport: { width: 1200, height: 1000 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    return { page, problems };
  }

  const fact = (page: Page, key: string) => page.locator(`[data-fact="${key}"]`);

  it('shows counts, model, health and runs, searches, keeps hostile text as text, and follows a new file', async () => {
    const { page, problems } = await openTab();
    await page.goto(`${base}/ui#token=${TOKEN}`);
    await expect.poll(() => fact(page, 'documents').textContent(), { timeout: 10_000 }).toBe('7');
    expect(page.url()).toBe(`${base}/ui`); // the token left the address bar
    expect(await page.evaluate("sessionStorage.getItem('groove.token')")).toBe(TOKEN);
    expect(await fact(page, 'chunks').textContent()).toBe('13');
    expect(await fact(page, 'vectors').textContent()).toBe('13');
    expect(await fact(page, 'model').textContent()).toBe('test-counting:counting-8');
    expect(await page.locator('#kb-path').textContent()).toBe(server!.kb.kbPath);
    expect(await page.locator('#health-summary').textContent()).toMatch(/^OK: \d+ checks found nothing/);
    expect(await fact(page, 'phase').textContent()).toBe('idle');
    // Newest first: live sync's catch-up at start (nothing new), then the run that indexed the notes.
    expect(await page.locator('#runs tbody tr').allTextContents()).toEqual([
      expect.stringMatching(/sync\s*ok\s*0 added/),
      expect.stringMatching(/sync\s*ok\s*7 added/),
    ]);

    await page.fill('#search-input', 'zebrafish');
    await page.press('#search-input', 'Enter');
    const hit = page.locator('#results li.hit').first();
    await hit.waitFor({ timeout: 10_000 });
    expect(await hit.locator('.title').textContent()).toBe(HOSTILE_TITLE);
    expect(await hit.locator('.heading').textContent()).toBe(HOSTILE_HEADING);
    expect(await hit.locator('.path').textContent()).toBe('hostile/markup.md');
    expect(await hit.locator('.score').textContent()).toMatch(/^0\.\d{4}$/);
    expect(await hit.locator('.snippet').textContent()).toContain(
      '<b onmouseover="window.__pwned=3">bold</b>',
    );
    expect(await hit.locator('.snippet mark').allTextContents()).toEqual(['zebrafish']);
    expect(await page.locator('#search-status').textContent()).toMatch(
      /^\d+ results? \(lexical ok, vector ok/,
    );
    // Nothing from the notes became an element, and none of their handlers ran.
    expect(await page.locator('main img, main script, main iframe, main b').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    // The artifact shows the hostile note's title, heading and body as the characters they are.
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'status-page.png'), fullPage: true });

    await page.fill('#search-input', 'Note about password');
    await page.press('#search-input', 'Enter');
    await expect
      .poll(() => page.locator('#results li.hit .path').first().textContent(), { timeout: 10_000 })
      .toBe('guides/password-reset.md');

    // Live sync: a new note is indexed and the page's next poll (every 5 s) shows it with its run.
    server!.serveKb.write('new/walrus.md', '# Walrus\n\nA freshly written note about walruses.\n');
    await expect.poll(() => fact(page, 'documents').textContent(), { timeout: 20_000 }).toBe('8');
    // The watcher may report the new file more than once: one of the runs since added it. The count can show
    // before the run that wrote it is recorded as finished, so the table is polled too.
    await expect
      .poll(() => page.locator('#runs tbody tr').allTextContents(), { timeout: 10_000 })
      .toContainEqual(expect.stringMatching(/sync\s*ok\s*1 added/));
    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('without a token asks for one, refuses a wrong one, and loads once the right one is typed in', async () => {
    const { page, problems } = await openTab();
    await page.goto(`${base}/ui`);
    const panel = page.locator('#token-panel');
    await panel.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await fact(page, 'documents').count()).toBe(0);
    await page.fill('#token-input', 'wrong-token');
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/status') && r.status() === 401);
    await page.press('#token-input', 'Enter');
    await refused;
    expect(await panel.isVisible()).toBe(true);
    expect(await fact(page, 'documents').count()).toBe(0);
    await page.fill('#token-input', TOKEN);
    await page.press('#token-input', 'Enter');
    await expect.poll(() => fact(page, 'documents').textContent(), { timeout: 10_000 }).toMatch(/^[78]$/);
    expect(await panel.isVisible()).toBe(false);
    // The browser logs each refused fetch (401) itself; nothing else may go wrong.
    expect(problems.filter((line) => !/status of 401/.test(line))).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('at 1280×900: search box above the fold, panels side by side, an info finding counted as info, whole-word marks', async () => {
    const laptop = await serveStatusPage({
      files: {
        ...HOSTILE_NOTES,
        'sync/conflicts.md': [
          '# Sync conflicts',
          '',
          'Obsidian typically syncs notes in the background. However, when a conflict appears the app keeps',
          'both versions, and I resolve it by hand; see [[Conflict log]] for the cases met so far.',
          '',
        ].join('\n'),
      },
    });
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
      await page.goto(`http://127.0.0.1:${laptop.port}/ui`);
      const summary = page.locator('#health-summary');
      await expect.poll(() => summary.textContent(), { timeout: 10_000 }).toMatch(/^OK: 1 info \(checked /);
      expect(await summary.getAttribute('class')).toBe('ok');
      expect(await page.locator('#findings .finding.info .badge').textContent()).toBe('info');

      const box = (await page.locator('#search-input').boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(900);
      const search = (await page.locator('#search-panel').boundingBox())!;
      const index = (await page.locator('#index-panel').boundingBox())!;
      expect(index.x).toBeGreaterThanOrEqual(search.x + search.width); // side by side, not stacked
      expect(index.x + index.width).toBeGreaterThan(1280 * 0.9); // no empty right third

      await page.fill('#search-input', 'how do I resolve a sync conflict');
      await page.press('#search-input', 'Enter');
      const hit = page.locator('#results li.hit').first();
      await hit.waitFor({ timeout: 10_000 });
      expect(await hit.locator('.path').textContent()).toBe('sync/conflicts.md');
      // Each mark with the character before and after it: a letter on either side would cut a word.
      const marks = await hit
        .locator('.snippet mark')
        .evaluateAll((nodes) =>
          nodes.map((node) => [
            (node.previousSibling?.textContent ?? '').slice(-1),
            node.textContent ?? '',
            (node.nextSibling?.textContent ?? '').slice(0, 1),
          ]),
        );
      expect(marks.map(([, text]) => text)).toEqual(
        expect.arrayContaining(['syncs', 'However', 'conflict', 'I', 'resolve']),
      );
      for (const [before, text, after] of marks) {
        expect(`${before}[${text}]${after}`).toMatch(/^[^\p{L}\p{N}]?\[[^\]]+\][^\p{L}\p{N}]?$/u);
      }
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'status-page-1280x900.png') });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await laptop.close();
    }
  }, 60_000);
});
