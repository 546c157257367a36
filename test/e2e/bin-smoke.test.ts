// The shipped entry point as a real process: `node bin/groove.js` on a copy of the sample KB, and a run that is
// SIGKILLed mid-index, after which every command still opens the index and no file is half-written.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIndexerPorts } from '../../src/app/indexing/indexer-ports.js';
import { killBinWhen, runBin } from '../support/run-bin.js';
import { createTempKb, type TempKb } from '../support/temp-kb.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const hasDist = fs.existsSync(path.join(repoRoot, 'dist/src/cli/main.js'));
const skipReason = 'dist/ is missing: run `npm run build` (npm test builds before vitest)';

let kb: TempKb;
beforeEach(() => {
  kb = createTempKb();
});
afterEach(() => kb.cleanup());

const groove = (args: string[]) => runBin(args, kb.root);

const kbArgs = () => ['--kb-path', kb.kbPath, '--db-path', kb.dbPath];

/** A note with several sections, so an interrupted write would show up as a document missing chunks. */
function generatedNote(n: number): string {
  const sections = Array.from(
    { length: 12 },
    (_, s) =>
      `## Section ${s} of note ${n}\n\nParagraph ${s} of generated note ${n} mentions token${n}x${s} and keeps ` +
      'going with ordinary words so that every section is long enough to be a chunk of its own.\n',
  );
  return `# Generated note ${n}\n\n${sections.join('\n')}`;
}

describe.skipIf(!hasDist)(`bin/groove.js (${hasDist ? 'dist present' : skipReason})`, () => {
  it('indexes a copy of the sample KB and reports it in status', () => {
    fs.cpSync(path.join(repoRoot, 'examples/sample-kb'), kb.kbPath, { recursive: true });
    const index = groove(['index', ...kbArgs(), '--model', 'none', '--format', 'json']);
    expect(index.stderr).not.toMatch(/\n\s+at /);
    expect(index.code).toBe(0);
    const summary = JSON.parse(index.stdout) as Record<string, number>;
    expect(summary.indexed).toBeGreaterThanOrEqual(5);
    expect(summary).toMatchObject({ skipped: 0, documents: summary.indexed });
    expect(index.stderr).toContain('indexed: guides/password-reset.md');

    const again = groove(['index', ...kbArgs(), '--format', 'json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ indexed: 0, unchanged: summary.indexed });

    const status = groove(['status', ...kbArgs(), '--format', 'json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ documents: summary.indexed, model: 'none' });
  });

  it('survives SIGKILL mid-index: the index opens, each file is fully old or fully new, a re-run completes', async () => {
    const total = 800;
    for (let n = 0; n < total; n++) kb.write(`gen/${String(n).padStart(4, '0')}.md`, generatedNote(n));

    // Lines appear after each commit (--verbose prints every one); by the 100th the run is well into its writes,
    // likely mid-transaction.
    const killed = await killBinWhen(
      ['index', ...kbArgs(), '--model', 'none', '--verbose'],
      kb.root,
      (stderr) => stderr.split('indexed: ').length > 100,
    );
    expect(killed.signal).toBe('SIGKILL');

    const status = groove(['status', ...kbArgs(), '--format', 'json']);
    expect(status.stderr).toBe('');
    expect(status.code).toBe(0);
    const partial = JSON.parse(status.stdout) as { documents: number };
    expect(partial.documents).toBeGreaterThan(0);
    expect(partial.documents).toBeLessThan(total);
    expectEveryDocumentComplete();

    const rerun = groove(['index', ...kbArgs(), '--format', 'json']);
    expect(rerun.stderr).not.toMatch(/\n\s+at /);
    expect(rerun.code).toBe(0);
    const summary = JSON.parse(rerun.stdout) as Record<string, number>;
    expect(summary.documents).toBe(total);
    expect(summary.indexed).toBe(total - partial.documents);
    expect(summary.indexed! + summary.updated! + summary.unchanged!).toBe(total);
    expectEveryDocumentComplete();
  }, 60_000);
});

/** Every stored document holds exactly the chunks its file parses into now. */
function expectEveryDocumentComplete(): void {
  const ports = buildIndexerPorts(kb.kbPath, kb.config({ overrides: { model: 'none' } }));
  const documents = kb.documents();
  for (const [relPath, stored] of documents) {
    const expected = ports.parse(relPath, fs.readFileSync(kb.abs(relPath), 'utf8')).chunks;
    expect(
      stored.chunks.map((c) => c.content),
      relPath,
    ).toEqual(expected.map((c) => c.content));
  }
}
