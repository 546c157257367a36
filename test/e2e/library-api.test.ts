// groove as a library: the facade, and the README's example as written, run against the package entry (`main` in package.json, built by
// `npm run build`), indexes a KB and answers a search through the same facade as the CLI.
import { spawnSync } from 'node:child_process';
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

/** The README's library example: the one ```ts block under "## As a library". */
function readmeLibraryExample(): string {
  const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## As a library'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md has no ```ts block under "## As a library"');
  return block[1]!;
}

const built = fs.existsSync(path.join(repoRoot, 'dist/src/index.js'));

describe.skipIf(!built)("the README's library example", () => {
  it("runs as written, importing 'groove-kb' as an installed package resolves it", () => {
    const example = readmeLibraryExample();
    expect(example).toContain("from 'groove-kb'");
    const project = path.join(root, 'project');
    fs.mkdirSync(path.join(project, 'node_modules'), { recursive: true });
    fs.symlinkSync(repoRoot, path.join(project, 'node_modules', 'groove-kb'), 'dir');
    fs.cpSync(path.join(repoRoot, 'examples/sample-kb'), path.join(project, 'notes'), { recursive: true });
    const report =
      'console.log(JSON.stringify({ paths: results.map((r) => r.path), lexical: legs.lexical.status }));\n';
    fs.writeFileSync(path.join(project, 'example.mjs'), example + report);

    const home = path.join(root, 'home');
    const run = spawnSync(process.execPath, ['example.mjs'], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '', HOME: home, GROOVE_HOME: path.join(root, 'groove-home') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
    expect(answer.paths[0]).toBe('guides/password-reset.md');
    expect(answer.lexical).toBe('ok');
    expect(fs.readdirSync(path.join(project, 'notes')).sort()).toEqual(
      fs.readdirSync(path.join(repoRoot, 'examples/sample-kb')).sort(),
    );
  });
});
