// Token budgets through the CLI (runCli in-process) on a lexical-only index: `search --max-tokens` in JSON and
// text, `eval --budget` in text and JSON, and the refused values.
import { describe, expect, it } from 'vitest';
import { runGroove } from '../support/run-cli.js';
import { useTempKbs } from '../support/temp-kb.js';

const createKb = useTempKbs();

const filler = 'This sentence pads the note and mentions nothing the query asks for. '.repeat(8);
const FILES = {
  'ops/backup.md': `# Backup\n\n${filler}\nThe nightly backupalpha job copies the database to cold storage.\n${filler}\n`,
  'ops/restore.md': '# Restore\n\nA backupalpha copy is restored from cold storage after a failure.\n',
  '.groove-eval.yml':
    'queries:\n  - id: q1\n    query: "backupalpha cold storage"\n    expected:\n      - path: ops/restore.md\n',
};

describe('token budgets on the command line', () => {
  it('search --max-tokens answers passages within the budget, in JSON and text', async () => {
    const temp = createKb(FILES);
    const where = ['--kb-path', temp.kbPath, '--db-path', temp.dbPath];
    expect((await runGroove(['index', ...where, '--model', 'none'], { cwd: temp.root })).code).toBe(0);
    const run = await runGroove(['search', 'backupalpha', ...where, '--max-tokens', '50'], {
      cwd: temp.root,
    });
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(run.stdout) as {
      results: { path: string; content: string; tokens: number; line_start: number }[];
      tokens_used: number;
      max_tokens: number;
      token_counter: string;
    };
    expect(json).toMatchObject({ max_tokens: 50, token_counter: 'estimate' });
    expect(json.tokens_used).toBeLessThanOrEqual(50);
    const backup = json.results.find((r) => r.path === 'ops/backup.md')!;
    expect(backup.content).toBe('The nightly backupalpha job copies the database to cold storage.');
    expect(backup.line_start).toBe(4);
    const text = await runGroove(
      ['search', 'backupalpha', ...where, '--max-tokens', '50', '--format', 'text'],
      {
        cwd: temp.root,
      },
    );
    expect(text.stdout).toContain(
      `[passages within max_tokens 50: ${json.tokens_used} tokens used (estimate)]`,
    );
    expect(text.stdout).toContain('The nightly backupalpha job copies the database to cold storage.');
    const refused = await runGroove(['search', 'backupalpha', ...where, '--max-tokens', '5'], {
      cwd: temp.root,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/max_tokens must be a whole number from 16 to 100000/);
  });

  it('eval --budget prints the budget table and its JSON; bad lists are refused', async () => {
    const temp = createKb(FILES);
    const where = ['--kb-path', temp.kbPath, '--db-path', temp.dbPath, '--model', 'none'];
    expect((await runGroove(['index', ...where], { cwd: temp.root })).code).toBe(0);
    const text = await runGroove(['eval', ...where, '--no-history', '--budget', '40,400'], {
      cwd: temp.root,
    });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('recall at a token budget');
    expect(text.stdout).toMatch(/^\s+40\s+100\.0%/m);
    const json = await runGroove(['eval', ...where, '--no-history', '--budget', '40', '--format', 'json'], {
      cwd: temp.root,
    });
    const rows = (
      JSON.parse(json.stdout) as { budget_recall: { max_tokens: number; passages: { recall: number } }[] }
    ).budget_recall;
    expect(rows).toEqual([
      expect.objectContaining({ max_tokens: 40, passages: expect.objectContaining({ recall: 1 }) }),
    ]);
    for (const bad of ['5', '500,500', 'many']) {
      const refused = await runGroove(['eval', ...where, '--no-history', '--budget', bad], {
        cwd: temp.root,
      });
      expect(refused.code, bad).toBe(2);
      expect(refused.stderr, bad).toMatch(/--budget/);
    }
  });
});
