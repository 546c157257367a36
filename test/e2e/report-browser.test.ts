// The HTML reports in a real browser: Debian's Chromium (playwright-core) opens the pages `groove eval --report`
// and `groove tune --report` wrote, from file://. Each loads with no console error, no script error and no
// request but the page itself; the trend charts have one point per history run plus this run; clicking a column
// header sorts the per-query table (checked order); hostile text stays text; the heat map has a cell per grid
// condition. Screenshots go to test-artifacts/. Skipped, saying why, only when no Chromium is installed.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, launchChromium, missingChromiumReason } from '../support/chromium.js';
import { repoRoot } from '../support/mcp-fixture.js';
import {
  createReportKb,
  HOSTILE_HEADING,
  HOSTILE_QUERY,
  HOSTILE_QUERY_ID,
  type ReportKb,
  seedHistory,
} from '../support/report-fixture.js';

const ARTIFACTS = path.join(repoRoot, 'test-artifacts');
const executablePath = findChromium();
const why = missingChromiumReason();
if (!executablePath) process.stderr.write(`report browser test skipped: ${why}\n`);
const title = executablePath
  ? 'the HTML reports in Chromium'
  : `the HTML reports in Chromium (skipped: ${why})`;

describe.skipIf(!executablePath)(title, () => {
  let fixture: ReportKb;
  let browser: { context: BrowserContext; close(): Promise<void> } | null = null;
  let historyRuns = 0;
  let evalFile = '';
  let tuneFile = '';

  beforeAll(async () => {
    fixture = await createReportKb();
    historyRuns = await seedHistory(fixture);
    evalFile = path.join(fixture.root, 'eval-report.html');
    tuneFile = path.join(fixture.root, 'tune-report.html');
    const base = ['--kb-path', fixture.kb, '--golden', fixture.golden, '--no-color'];
    const evaluated = await fixture.groove(['eval', ...base, '--report', evalFile]);
    expect(evaluated.code, evaluated.stderr).toBe(0);
    const tuned = await fixture.groove(['tune', ...base, '--report', tuneFile]);
    expect(tuned.code, tuned.stderr).toBe(0);
    browser = await launchChromium(executablePath!);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    fixture?.cleanup();
  });

  /** Open `file` and record every script error, console error and request. */
  async function open(file: string): Promise<{ page: Page; problems: string[]; requests: string[] }> {
    const page = await browser!.context.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`console: ${message.text()}`);
    });
    page.on('requestfailed', (request) => problems.push(`failed request: ${request.url()}`));
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(file).href);
    await page.waitForLoadState('load');
    return { page, problems, requests };
  }

  /** The sort button of one column header of a table. */
  const header = (page: Page, table: string, label: string) =>
    page.locator(`#${table} thead`).getByRole('button', { name: label, exact: true });
  const queryIds = (page: Page) =>
    page
      .locator('#per-query tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-query-id')));
  const columnValues = (page: Page, metric: string) =>
    page
      .locator(`#per-query tbody td[data-metric="${metric}"]`)
      .evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-value'))));

  it('eval: loads offline without errors, plots every run, sorts the per-query table, keeps hostile text as text', async () => {
    const { page, problems, requests } = await open(evalFile);
    const charts = page.locator('svg.trend');
    expect(await charts.count()).toBe(9);
    // Every run has a point, but the one measured at k = 1,3 has none where k is 5 or 10.
    for (const chart of await charts.all()) {
      const metric = (await chart.getAttribute('data-metric'))!;
      const expected = /@(5|10)$/.test(metric) ? historyRuns : historyRuns + 1;
      expect(await chart.locator('circle.point').count(), metric).toBe(expected);
    }
    expect(await page.locator('svg.trend[data-metric="MRR"] circle.point.incompatible').count()).toBe(2);
    expect(await page.locator('svg.trend[data-metric="MRR"] circle.point.degraded').count()).toBe(1);

    // Default order: the flagged rows first — `backup`, whose note lost its words, and `never` — in golden order.
    const initial = await queryIds(page);
    expect(initial.slice(0, 2)).toEqual(['backup', 'never']);
    expect(await page.locator('#per-query tbody tr .badge.miss').count()).toBe(2);
    expect(await page.locator('#per-query tbody tr').nth(2).locator('.badge').count()).toBe(0);

    await header(page, 'per-query', 'id').click();
    const ascending = [...initial].sort((a, b) => (a! < b! ? -1 : a! > b! ? 1 : 0));
    expect(await queryIds(page)).toEqual(ascending);
    await header(page, 'per-query', 'id').click();
    expect(await queryIds(page)).toEqual([...ascending].reverse());

    await header(page, 'per-query', 'nDCG@10').click();
    const ndcg = await columnValues(page, 'ndcg');
    expect(ndcg).toEqual([...ndcg].sort((a, b) => a - b));
    expect(ndcg[0]).toBe(0);

    // Hostile id, query and heading are text: shown as written, no element made from them, nothing run.
    expect(await page.locator('main img, body img, table script').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    const hostileRow = page.locator('#per-query tbody tr').filter({ hasText: HOSTILE_QUERY });
    expect(await hostileRow.locator('.query-id').textContent()).toBe(HOSTILE_QUERY_ID);
    expect(await hostileRow.locator('li.expected .hit-where').first().textContent()).toBe(
      `hostile.md # ${HOSTILE_HEADING}`,
    );

    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'eval-report.png'), fullPage: true });
    expect(problems).toEqual([]);
    expect(requests).toEqual([pathToFileURL(evalFile).href]);
    await page.close();
  }, 60_000);

  it('tune: loads offline without errors, draws every grid cell and the histogram, sorts the fold table', async () => {
    const { page, problems, requests } = await open(tuneFile);
    const json = (await page.evaluate(
      "JSON.parse(document.getElementById('groove-tune-json').textContent)",
    )) as { query_count: number; loo: { folds: number } };
    expect(json.query_count).toBe(12);
    expect(await page.locator('svg.heat-map rect.cell').count()).toBe(384);
    expect(await page.locator('svg.heat-map rect.cell.refit').count()).toBe(1);
    expect(await page.locator('svg.heat-map rect.cell.default').count()).toBe(1);
    const counts = await page
      .locator('svg.histogram rect.bar')
      .evaluateAll((bars) => bars.map((b) => Number(b.getAttribute('data-count'))));
    expect(counts.reduce((s, c) => s + c, 0)).toBe(json.query_count);
    expect(await page.locator('#criteria tbody tr').count()).toBe(5);

    await page.locator('details', { hasText: 'every fold' }).locator('summary').click();
    await header(page, 'folds', 'held out').click();
    const heldOut = await page.locator('#folds tbody tr td:first-child').allTextContents();
    expect(heldOut).toEqual([...heldOut].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(heldOut).toHaveLength(json.loo.folds);
    expect(heldOut.length).toBeGreaterThan(1);

    await page.screenshot({ path: path.join(ARTIFACTS, 'tune-report.png'), fullPage: true });
    expect(problems).toEqual([]);
    expect(requests).toEqual([pathToFileURL(tuneFile).href]);
    await page.close();
  }, 60_000);
});
