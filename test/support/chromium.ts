// Debian's Chromium for the browser tests and the report screenshots: where it is, the flags that work here
// (headless, no sandbox, no GPU, nothing fetched in the background), and why a test is skipped when it is absent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
];

/** `GROOVE_CHROMIUM`, else `chromium` or `chromium-browser` on PATH; null when there is none. */
export function findChromium(): string | null {
  const named = process.env.GROOVE_CHROMIUM;
  const candidates = named
    ? [named]
    : (process.env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .flatMap((dir) => [path.join(dir, 'chromium'), path.join(dir, 'chromium-browser')]);
  return (
    candidates.find((file) => {
      try {
        fs.accessSync(file, fs.constants.X_OK);
        return fs.statSync(file).isFile();
      } catch {
        return false;
      }
    }) ?? null
  );
}

/** Why there is no Chromium, naming the variable or .ci/run's install outcome when set. */
export function missingChromiumReason(): string {
  return [
    'no Chromium executable found',
    process.env.GROOVE_CHROMIUM
      ? `(GROOVE_CHROMIUM=${process.env.GROOVE_CHROMIUM} is not an executable)`
      : '',
    process.env.GROOVE_CHROMIUM_INSTALL ? `(.ci/run: ${process.env.GROOVE_CHROMIUM_INSTALL})` : '',
    '— install it with `apt-get install chromium`',
  ]
    .filter(Boolean)
    .join(' ');
}

/** Chromium with a fresh user-data-dir of its own, removed again by `close`. */
export async function launchChromium(
  executablePath: string,
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1200, height: 900 },
    timeout: 30_000,
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
