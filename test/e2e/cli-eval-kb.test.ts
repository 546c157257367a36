// `groove eval --kb NAME` and the golden sets of a registered KB, through the built CLI from an unrelated folder
// (GROOVE_HOME in a temp folder): golden build and import write to the KB's own folder in groove's data folder,
// eval finds them there, a KB's own `.groove-eval.yml` comes first, and the history lands beside them — nothing
// is ever written inside a KB folder.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { resolveConfig } from '../../src/config/resolve-config.js';
import { type CliSandbox, cliSandbox } from '../support/cli-sandbox.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;
let box: CliSandbox;
const groove = (...args: string[]) => box.groove(args);

beforeEach(() => {
  box = cliSandbox('groove-evalkb-');
  ({ root, cwd, env } = box);
});
afterEach(() => box.remove());

/** Every file under `dir` with its size and modification time: what a write would change. */
function listing(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      const stat = fs.statSync(file);
      return `${path.relative(dir, file)} ${stat.size} ${stat.mtimeMs}`;
    })
    .sort();
}

/** A registered, indexed copy of the sample KB. */
function sampleKb(name: string): string {
  const kb = path.join(root, 'kbs', name);
  fs.cpSync(path.join(repoRoot, 'examples/sample-kb'), kb, { recursive: true });
  expect(groove('kb', 'add', name, kb, '--model', 'none').code).toBe(0);
  const indexed = groove('index', '--kb', name);
  expect(indexed.code, indexed.stderr).toBe(0);
  return kb;
}

const ownFolder = (name: string) => path.join(root, 'groove', 'data', 'kbs', name);

describe('groove eval --kb NAME', () => {
  it('golden build writes to the KB own folder, eval finds it there, and the KB folder is never written', async () => {
    const kb = sampleKb('notes');
    const before = listing(kb);
    const facade = openKnowledgeBase(resolveConfig({ cwd, env, kb: 'notes' }));
    try {
      await facade.recordFeedback({
        taskId: 'task-reset',
        query: 'reset a password',
        items: [{ path: 'guides/password-reset.md', verdict: 'helped' }],
      });
    } finally {
      await facade.close();
    }
    const built = groove('eval', 'golden', 'build', '--from-feedback', '--kb', 'notes', '--format', 'json');
    expect(built.code, built.stderr).toBe(0);
    const golden = path.join(ownFolder('notes'), 'golden.yml');
    expect((JSON.parse(built.stdout) as { out: string }).out).toBe(golden);
    expect(fs.readFileSync(golden, 'utf8')).toContain('guides/password-reset.md');
    expect(fs.existsSync(path.join(ownFolder('notes'), 'golden.meta.yml'))).toBe(true);

    const measured = groove('eval', '--kb', 'notes', '--format', 'json');
    expect(measured.code, measured.stderr).toBe(0);
    const report = JSON.parse(measured.stdout) as { per_query: { id: string }[] };
    expect(report.per_query.map((q) => q.id)).toEqual(['task-reset']);
    expect(fs.existsSync(path.join(ownFolder('notes'), 'eval-history.json'))).toBe(true);
    expect(groove('eval', '--kb', 'notes').code).toBe(0);
    expect(listing(kb)).toEqual(before);
  });

  it("a KB's own .groove-eval.yml comes first; import writes beside the history and says so", () => {
    const kb = sampleKb('handbook');
    fs.writeFileSync(
      path.join(kb, '.groove-eval.yml'),
      'queries:\n  - id: own-set\n    query: "password reset"\n    expected:\n      - path: guides/password-reset.md\n',
    );
    const before = listing(kb);
    fs.writeFileSync(path.join(cwd, 'q.tsv'), 'imported\tforgot password\n');
    fs.writeFileSync(path.join(cwd, 'r.tsv'), 'imported\tguides/password-reset.md\t1\n');
    const imported = groove(
      'eval',
      'golden',
      'import',
      '--qrels',
      'r.tsv',
      '--queries',
      'q.tsv',
      '--kb',
      'handbook',
    );
    expect(imported.code, imported.stderr).toBe(0);
    const golden = path.join(ownFolder('handbook'), 'golden.yml');
    expect(imported.stdout).toContain(`wrote ${golden}`);
    expect(imported.stderr).toContain(`groove eval reads ${path.join(kb, '.groove-eval.yml')} first`);

    const own = groove('eval', '--kb', 'handbook', '--format', 'json');
    expect(own.code, own.stderr).toBe(0);
    expect((JSON.parse(own.stdout) as { per_query: { id: string }[] }).per_query.map((q) => q.id)).toEqual([
      'own-set',
    ]);
    const other = groove('eval', '--kb', 'handbook', '--golden', golden, '--format', 'json');
    expect(other.code, other.stderr).toBe(0);
    expect((JSON.parse(other.stdout) as { per_query: { id: string }[] }).per_query.map((q) => q.id)).toEqual([
      'imported',
    ]);
    expect(fs.existsSync(path.join(ownFolder('handbook'), 'eval-history.json'))).toBe(true);
    expect(listing(kb)).toEqual(before);
  });
});
