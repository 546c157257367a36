// The integrity checks through the CLI (runCli in-process): exit 3 for a component down and for a stale golden
// set, the flags that override them, golden stamp / build, --rows blocks, paired intervals, --compare and
// --fail-on-significant-regression — ending with the whole loop from agent feedback to a stale-set refusal.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { runCli } from '../../src/cli/main.js';
import { evalHistoryIn, kbOwnFolderFor } from '../support/kb-own-folder.js';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';

const NAMES = ['ant', 'bee', 'cat', 'dog', 'eel', 'fox', 'gnu', 'hen', 'ibis', 'jay', 'kiwi', 'lynx'];
const DAY_MS = 24 * 60 * 60 * 1000;

let kb: TempKb;

async function groove(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s) },
    env: {},
    cwd: kb.root,
  });
  return { code, stdout, stderr };
}
const where = () => ['--kb-path', kb.kbPath, '--db-path', kb.dbPath];
const evalCli = (...args: string[]) => groove('eval', ...where(), ...args);

function distractor(name: string): string {
  const words = `talks about ${name}alpha`;
  return `# ${words}\n\n${Array.from({ length: 8 }, () => words).join(' ')}\n`;
}

/** Rewrite the sidecar's `created` as if it had been written `days` ago. */
function ageSidecar(days: number): void {
  const file = kb.abs('.groove-eval.meta.yml');
  const created = new Date(Date.now() - days * DAY_MS).toISOString().replace(/\.\d{3}Z$/, '+00:00');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^created: .*$/m, `created: ${created}`));
}

beforeEach(async () => {
  const files: Record<string, string> = {};
  for (const name of NAMES) files[`notes/${name}.md`] = noteText(name);
  files['.groove-eval.yml'] = `queries:\n${NAMES.map(
    (name) =>
      `  - id: ${name}\n    query: "talks about ${name}alpha"\n    expected:\n      - path: notes/${name}.md\n`,
  ).join('')}`;
  kb = createTempKb(files);
  const indexed = await groove('index', ...where(), '--model', 'none');
  expect(indexed.code, indexed.stderr).toBe(0);
});
afterEach(() => kb.cleanup());

describe('refusals (exit 3)', () => {
  it('a silently emptied FTS index: exit 3 with the component named; --allow-degraded measures and says so', async () => {
    const db = new Database(kb.dbPath);
    db.unsafeMode(true);
    db.exec(
      "INSERT INTO fts_words(fts_words) VALUES('delete-all'); INSERT INTO fts_chunks(fts_chunks) VALUES('delete-all');",
    );
    db.close();
    const refused = await evalCli();
    expect(refused.code).toBe(3);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      /^groove: error: component down: lexical — full-text search answered nothing for words copied from an indexed chunk\. /,
    );
    expect(refused.stderr).toContain('--allow-degraded');
    expect(fs.existsSync(evalHistoryIn(kbOwnFolderFor(kb.kbPath, {}, kb.root)))).toBe(false);

    const anyway = await evalCli('--allow-degraded', '--format', 'json');
    expect(anyway.code).toBe(0);
    const json = JSON.parse(anyway.stdout) as Record<string, unknown>;
    expect(json.degraded).toBe(true);
    expect((json.fingerprint as { degraded: string[] }).degraded).toEqual(['lexical']);
    expect(anyway.stderr).toContain(
      'groove eval: warning: measured with a component down (--allow-degraded): lexical',
    );
    const text = await evalCli('--allow-degraded');
    expect(text.stdout).toContain('  ⚠️ degraded: lexical — full-text search answered nothing');
    // Two runs degraded the same way are comparable with each other (never with a healthy one).
    expect(text.stdout).toContain('Aggregate (previous run: ');
  });

  it('groove tune probes the legs first: exit 3 on a corrupted FTS index, --allow-degraded sweeps anyway', async () => {
    const db = new Database(kb.dbPath);
    db.unsafeMode(true);
    db.exec("UPDATE fts_words_data SET block = x'00112233445566778899' WHERE id > 10");
    db.close();
    const refused = await groove('tune', ...where());
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^groove: error: component down: lexical — (failed|partial): /);
    const anyway = await groove('tune', ...where(), '--allow-degraded');
    expect(anyway.stderr).toContain(
      'groove tune: warning: sweeping with a component down (--allow-degraded)',
    );
    expect(anyway.code).not.toBe(3);
  });

  it('a golden set past max_golden_age_days: exit 3 a month later; --allow-stale-golden warns on top', async () => {
    const stamped = await groove('eval', 'golden', 'stamp', ...where());
    expect(stamped.code, stamped.stderr).toBe(0);
    expect(stamped.stdout).toMatch(
      /^stamped .*\.groove-eval\.yml \(12 queries\)\n {2}wrote .*\.groove-eval\.meta\.yml: created /,
    );
    const fresh = await evalCli();
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout).toMatch(/\n {2}golden: created \S+ \(0 days ago, source stamp\)\n/);

    ageSidecar(31);
    const stale = await evalCli();
    expect(stale.code).toBe(3);
    expect(stale.stderr).toMatch(
      /^groove: error: golden set ".*" is 31 days old \(created .*\[eval\] max_golden_age_days = 30\)/,
    );
    expect(stale.stderr).toContain('groove eval golden build --from-feedback');

    const anyway = await evalCli('--allow-stale-golden');
    expect(anyway.code).toBe(0);
    expect(anyway.stdout).toContain(
      '    ⚠️ older than [eval] max_golden_age_days = 30; measured anyway (--allow-stale-golden)',
    );
    expect(anyway.stderr).toContain('groove eval: warning: the golden set is 31 days old');
  });

  it('warns when the corpus moved past golden_drift_warn since the stamp', async () => {
    await groove('eval', 'golden', 'stamp', ...where());
    kb.write('extra/zebra.md', noteText('zebra'));
    await groove('index', ...where(), '--model', 'none');
    const result = await evalCli();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '    ⚠️ corpus moved 8.3% since the golden set was made (12 -> 13 documents, 24 -> 26 chunks)\n',
    );
    expect(result.stderr).toContain(
      'groove eval: warning: the corpus moved 8.3% since the golden set was made',
    );
  });
});

describe('paired intervals and gates', () => {
  it('prints the interval beside each arrow; --fail-on-significant-regression fails only on a whole-interval drop', async () => {
    const baseline = await evalCli('--format', 'json');
    const baselineFile = path.join(kb.root, 'baseline.json');
    fs.writeFileSync(baselineFile, baseline.stdout);
    kb.write('distract/ant.md', distractor('ant'));
    await groove('index', ...where(), '--model', 'none');
    const one = await evalCli('--fail-on-significant-regression');
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toMatch(
      /\n {2}recall@1 {3}0\.917 {2}\(↓ 0\.083\) {2}95% CI \[-0\.\d{3}, \+0\.\d{3}\] indistinguishable\n/,
    );
    expect(one.stdout).toContain(
      '  paired over 12 shared queries; smallest effect detectable at this N (80% power):\n',
    );
    // The seed's mean gate calls the same drop a regression.
    const mean = await evalCli('--fail-on-regression', '--compare', baselineFile, '--no-history');
    expect(mean.code).toBe(1);
    expect(mean.stderr).toContain('groove eval: regression against the run of');

    for (const name of NAMES.slice(1, 10)) kb.write(`distract/${name}.md`, distractor(name));
    await groove('index', ...where(), '--model', 'none');
    const many = await evalCli(
      '--fail-on-significant-regression',
      '--format',
      'json',
      '--compare',
      baselineFile,
    );
    expect(many.code).toBe(1);
    expect(many.stderr).toMatch(
      /groove eval: significant regression against the run of \S+ \(95% interval entirely below zero\): recall@1 -0\.833 \[-\d\.\d{3}, -\d\.\d{3}\]/,
    );
    const json = JSON.parse(many.stdout) as {
      paired: { shared_queries: number; metrics: { metric: string; verdict: string }[] };
      gates: Record<string, { state: string }>;
    };
    expect(json.paired.shared_queries).toBe(12);
    expect(json.paired.metrics.find((m) => m.metric === 'recall@1')!.verdict).toBe('regressed');
    expect(json.gates.significant_regression!.state).toBe('regressed');
    expect(json.gates.regression!.state).toBe('off');
  });

  it('--compare takes a --format json file as the baseline', async () => {
    const first = await evalCli('--format', 'json', '--no-history');
    fs.writeFileSync(path.join(kb.root, 'baseline.json'), first.stdout);
    for (const name of NAMES.slice(0, 10)) kb.write(`distract/${name}.md`, distractor(name));
    await groove('index', ...where(), '--model', 'none');
    const compared = await evalCli('--compare', 'baseline.json', '--no-history');
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stdout).toMatch(
      /Aggregate \(compared run: \S+\)\n {2}recall@1 {3}0\.167 {2}\(↓ 0\.833\) {2}95% CI \[.*\] regressed\n/,
    );
    const bad = await evalCli('--compare', 'missing.json');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is neither a run of the eval history nor a readable file');
  });
});

describe('--rows', () => {
  it('prints one block per row, the first marked as the decision row', async () => {
    const result = await evalCli('--rows', 'core,mmr,parent');
    expect(result.code, result.stderr).toBe(0);
    const titles = result.stdout.split('\n').filter((line) => line.startsWith('── row '));
    expect(titles).toEqual([
      '── row core · decision row (the gates apply to it) ──',
      '── row mmr · reference row (printed, never gated) ──',
      '── row parent · reference row (printed, never gated) ──',
    ]);
    expect(result.stdout.match(/^groove eval — /gm)).toHaveLength(3);
    expect(
      result.stdout.match(/^ {2}vs decision row core \(paired over 12 queries, 95% CI\):$/gm),
    ).toHaveLength(2);
    expect(result.stdout).toMatch(/\n {4}recall@1 {3}[+-]\d\.\d{3} \[[+-]\d\.\d{3}, [+-]\d\.\d{3}\] \w+\n/);
    const json = JSON.parse((await evalCli('--rows', 'core,mmr', '--format', 'json')).stdout) as {
      row: string;
      rows: { row: string; decision: boolean; versus_decision: unknown }[];
    };
    expect(json.row).toBe('core');
    expect(json.rows.map((r) => r.versus_decision === null)).toEqual([true, false]);
    expect(json.rows.map((r) => [r.row, r.decision])).toEqual([
      ['core', true],
      ['mmr', false],
    ]);
    const bad = await evalCli('--rows', 'core,fast');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown row stage "fast"');
  });

  it('prints a learned row with the judgments it used, its honest twin and the leak between them', async () => {
    const facade = openKnowledgeBase(kb.config({ overrides: { model: 'none' } }));
    try {
      await facade.recordFeedback({
        taskId: 'ant',
        query: 'talks about antalpha',
        items: [
          { path: 'notes/ant.md', verdict: 'helped' },
          { path: 'notes/bee.md', verdict: 'noise' },
          { path: 'notes/cat.md', verdict: 'helped', alwaysServed: true },
        ],
      });
    } finally {
      await facade.close();
    }
    const result = await evalCli('--rows', 'core,boost', '--no-history');
    expect(result.code, result.stderr).toBe(0);
    const titles = result.stdout.split('\n').filter((line) => line.startsWith('── row '));
    expect(titles).toEqual([
      '── row core · decision row (the gates apply to it) ──',
      '── row boost · reference row (printed, never gated) ──',
      '── row boost-honest · reference row (printed, never gated, added for a learned row) ──',
    ]);
    expect(result.stdout).toContain(
      '  learned from 1 serve(s), 3 judged item(s): 2 counted (1 always-served, 0 past the horizon left out), 2 judged document(s), 0 co-helpful edge(s); the golden set has no sidecar saying it was built from feedback',
    );
    expect(result.stdout).toContain(
      '  honest: each query learned without its own serves (same task id or same text): 1 of 12 queries left 1 serve(s) out in all',
    );
    expect(result.stdout).toMatch(
      /\n {2}leak: vs honest twin boost-honest \(this row minus the twin\) \(paired over 12 queries, 95% CI\):\n {4}recall@1 /,
    );
    // The decision row is core: "vs core" is the "vs decision row" block already, printed once.
    expect(result.stdout).not.toContain('  vs core (');
    const refused = await evalCli('--rows', 'boost,core', '--no-history');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('cannot be the decision row');
  });
});

describe('the whole loop: agent feedback → golden build → eval with CI → stale-set refusal a month later', () => {
  it('runs end to end', async () => {
    // 1. Agents record judgments (the MCP tool record_feedback calls this same facade method).
    const facade = openKnowledgeBase(kb.config({ overrides: { model: 'none' } }));
    try {
      for (const name of NAMES) {
        await facade.recordFeedback({
          taskId: `task-${name}`,
          query: `talks about ${name}alpha`,
          items: [
            { path: `notes/${name}.md`, verdict: 'helped' },
            { path: 'notes/ant.md', verdict: name === 'ant' ? 'helped' : 'noise' },
            { path: 'rules/always.md', verdict: 'helped', alwaysServed: true },
          ],
        });
      }
      await facade.recordFeedback({
        taskId: 'task-ant',
        query: 'talks about antalpha',
        items: [{ path: 'notes/ant.md', verdict: 'helped' }],
      });
    } finally {
      await facade.close();
    }
    // 2. Build the golden set (refused without a source; the hand-written file needs --out).
    expect((await groove('eval', 'golden', 'build', ...where())).code).toBe(2);
    const out = path.join(kb.root, 'golden-from-feedback.yml');
    const built = await groove('eval', 'golden', 'build', '--from-feedback', '--out', out, ...where());
    expect(built.code, built.stderr).toBe(0);
    expect(built.stdout).toContain(
      'groove eval golden build — 13 recorded serve(s) of 12 task(s), 37 judged item(s)\n',
    );
    expect(built.stdout).toContain('  always-served items excluded   -0     queries  -12 items\n');
    expect(built.stdout).toContain('  repeated tasks counted once    -1     queries  -2 items\n');
    expect(built.stdout).toContain(
      '  kept: 12 queries, 12 expected entries (11 noise/wrong judgments are not listed',
    );
    expect(fs.existsSync(path.join(kb.root, 'golden-from-feedback.meta.yml'))).toBe(true);
    // 3. Measure twice: the second run carries paired intervals.
    expect((await evalCli('--golden', out)).code).toBe(0);
    const second = await evalCli('--golden', out, '--fail-on-significant-regression');
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('  golden: created ');
    expect(second.stdout).toContain('95% CI [+0.000, +0.000] indistinguishable');
    // 4. A month later the set is refused until it is rebuilt.
    const sidecar = path.join(kb.root, 'golden-from-feedback.meta.yml');
    const created = new Date(Date.now() - 31 * DAY_MS).toISOString().replace(/\.\d{3}Z$/, '+00:00');
    fs.writeFileSync(
      sidecar,
      fs.readFileSync(sidecar, 'utf8').replace(/^created: .*$/m, `created: ${created}`),
    );
    expect((await evalCli('--golden', out)).code).toBe(3);
    expect((await groove('eval', 'golden', 'build', '--from-feedback', '--out', out, ...where())).code).toBe(
      0,
    );
    expect((await evalCli('--golden', out)).code).toBe(0);
  });
});
