// groove as a library: the README's example, run against the package entry (`main` in package.json, built by
// `npm run build`), indexes a KB and answers a search through the same facade as the CLI.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-lib-')));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('library API', () => {
  it('indexes and searches through openKnowledgeBase(resolveConfig(...))', async () => {
    const main = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).main as string;
    const groove = (await import(path.join(repoRoot, main))) as typeof import('../../src/index.js');
    const notes = path.join(root, 'notes');
    fs.cpSync(path.join(repoRoot, 'examples/sample-kb'), notes, { recursive: true });

    // The README's example, as written there.
    const config = groove.resolveConfig({
      cwd: process.cwd(),
      env: {},
      overrides: { kbPath: notes, model: 'none' },
    });
    const kb = groove.openKnowledgeBase(config);
    await kb.index();
    const { results, legs } = await kb.search({ query: 'reset password', limit: 3 });
    await kb.close();

    expect(results[0]?.path).toBe('guides/password-reset.md');
    expect(legs.lexical.status).toBe('ok');
    expect(legs.vector.status).toBe('disabled');
    expect(groove.ERROR_CODES).toContain('INDEX_BUSY');
  });
});
