// A knowledge base to make HTML reports from: the sample KB, plus notes a fusion sweep can move (a term in one
// note's heading, repeated in two decoys' bodies) and a note whose heading is markup; a golden set whose ids and
// queries include markup too; indexed lexical-only, with an eval history of compatible, incompatible and degraded
// runs. Used by the report e2e test, the browser test and scripts/report-screenshots.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { evalHistoryIn, kbOwnFolderFor } from './kb-own-folder.js';
import { type CliRun, offlineEnv, runGroove } from './run-cli.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** Shown in the per-query table and the hits: must stay text. */
export const HOSTILE_QUERY_ID = '<img src=x onerror="window.__pwned=1">';
export const HOSTILE_QUERY = '</style><script>window.__pwned=2</script> quorvane';
export const HOSTILE_HEADING = '<script>window.__pwned=3</script> quorvane';

/** Made-up words: each its own query term, no stem collisions. */
const TERMS = [
  'velmorant',
  'quistrel',
  'barnowick',
  'trelliphant',
  'ozmandel',
  'pryscott',
  'halvering',
  'druminox',
];
const PADDING = 'plain words about shelving, weekly planning and the routine upkeep of a small archive room';

export interface ReportKb {
  root: string;
  kb: string;
  golden: string;
  groove(args: string[]): Promise<CliRun>;
  cleanup(): void;
}

function writeNotes(kb: string): void {
  fs.cpSync(path.join(repoRoot, 'examples/sample-kb'), kb, { recursive: true });
  TERMS.forEach((term, i) => {
    fs.writeFileSync(
      path.join(kb, `topic-${i}.md`),
      `# Topic ${i}\n\n## On ${term}\n\n${PADDING}, part ${i}.\n`,
    );
    for (const decoy of [1, 2]) {
      fs.writeFileSync(
        path.join(kb, `echo-${i}-${decoy}.md`),
        `# Echo ${i}.${decoy}\n\n## Part ${decoy}\n\n${`${term} `.repeat(4)}${PADDING}.\n`,
      );
    }
  });
  fs.writeFileSync(path.join(kb, 'hostile.md'), `# Markup\n\n## ${HOSTILE_HEADING}\n\nA note on quorvane.\n`);
}

function goldenText(): string {
  const entries = [
    ...TERMS.map((term, i) => ({ id: `q-${term}`, query: term, path: `topic-${i}.md` })),
    { id: 'reset', query: 'forgot password recovery link', path: 'guides/password-reset.md' },
    { id: 'backup', query: 'pg_restore restore database', path: 'ops/backup-runbook.md' },
    // Never found: a miss in every run.
    { id: 'never', query: 'release checklist changelog', path: 'guides/search-syntax.md' },
    { id: HOSTILE_QUERY_ID, query: HOSTILE_QUERY, path: 'hostile.md' },
  ];
  return `queries:\n${entries
    .map(
      (e) =>
        `  - id: ${JSON.stringify(e.id)}\n    query: ${JSON.stringify(e.query)}\n    expected:\n      - path: ${e.path}\n`,
    )
    .join('')}`;
}

/** The KB's eval history, in the KB's own folder under the fixture's groove folders. */
export function reportHistoryPath(fixture: ReportKb): string {
  return evalHistoryIn(kbOwnFolderFor(fixture.kb, offlineEnv(fixture.root), fixture.root));
}

/** The KB indexed lexical-only, with its golden file beside it (not inside the KB). */
export async function createReportKb(): Promise<ReportKb> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-report-')));
  const kb = path.join(root, 'kb');
  const golden = path.join(root, 'golden.yml');
  writeNotes(kb);
  fs.writeFileSync(golden, goldenText());
  const fixture: ReportKb = {
    root,
    kb,
    golden,
    groove: (args) => runGroove(args, { cwd: root }),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
  await reindex(fixture);
  return fixture;
}

async function reindex(fixture: ReportKb): Promise<void> {
  const indexed = await fixture.groove(['index', '--kb-path', fixture.kb, '--model', 'none']);
  if (indexed.code !== 0) throw new Error(`index failed: ${indexed.stderr}`);
}

/**
 * The history of a KB that changed: three runs while `topic-0.md` lacked its term (so `q-velmorant` missed) —
 * two compatible with a default eval, one at k = 1,3 (incompatible) — and the newest copied as a degraded run
 * (the vector leg down), as `--allow-degraded` records it. Then the term comes back and the backup runbook
 * loses its words, so the next eval gains one query and loses another. Returns how many runs the history holds.
 */
export async function seedHistory(fixture: ReportKb): Promise<number> {
  const topic = path.join(fixture.kb, 'topic-0.md');
  const original = fs.readFileSync(topic, 'utf8');
  fs.writeFileSync(topic, original.replace(`## On ${TERMS[0]}`, '## On nothing in particular'));
  await reindex(fixture);
  const evalArgs = ['eval', '--kb-path', fixture.kb, '--golden', fixture.golden, '--no-color'];
  for (const extra of [[], ['--k', '1,3'], []]) {
    const run = await fixture.groove([...evalArgs, ...extra]);
    if (run.code !== 0) throw new Error(`eval failed: ${run.stderr}`);
  }
  const historyPath = reportHistoryPath(fixture);
  const history = JSON.parse(fs.readFileSync(historyPath, 'utf8')) as { runs: Record<string, unknown>[] };
  const newest = history.runs[0]!;
  const degraded = {
    ...newest,
    fingerprint: { ...(newest.fingerprint as object), degraded: ['vector'] },
    degradation: [{ leg: 'vector', reason: 'model not loaded' }],
  };
  history.runs.splice(1, 0, degraded);
  fs.writeFileSync(historyPath, `${JSON.stringify(history, null, 2)}\n`);
  fs.writeFileSync(topic, original);
  fs.writeFileSync(path.join(fixture.kb, 'ops/backup-runbook.md'), '# Runbook\n\nMoved to the wiki.\n');
  await reindex(fixture);
  return history.runs.length;
}
