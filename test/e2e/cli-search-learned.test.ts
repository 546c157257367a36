// `groove search` per-call stage switches through the CLI (runCli in-process) on a lexical-only index:
// --boost/--graph with judgments recorded through the facade turn each stage on over a config that leaves it off
// and off over one that enables it, the text naming a pulled-in hit; --legs runs one retrieval leg alone.
import { describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { runGroove } from '../support/run-cli.js';
import { useTempKbs } from '../support/temp-kb.js';

const createKb = useTempKbs();

describe('groove search --boost / --graph', () => {
  it('turns the learned stages on and off per call and shows a pulled-in hit', async () => {
    const temp = createKb({
      'ops/backup.md': '# Backup\n\nHow the nightly backupalpha job copies the database to cold storage.\n',
      'ops/restore.md': '# Restore\n\nSteps to bring a database back from cold storage after a failure.\n',
    });
    const where = ['--kb-path', temp.kbPath, '--db-path', temp.dbPath];
    expect((await runGroove(['index', ...where, '--model', 'none'], { cwd: temp.root })).code).toBe(0);
    const facade = openKnowledgeBase(temp.config({ overrides: { model: 'none' } }));
    try {
      await facade.recordFeedback({
        taskId: 'restore-drill',
        query: 'restore from a backup',
        items: [
          { path: 'ops/backup.md', verdict: 'helped' },
          { path: 'ops/restore.md', verdict: 'helped' },
        ],
      });
    } finally {
      await facade.close();
    }
    const search = async (...flags: string[]) => {
      const run = await runGroove(['search', 'backupalpha', ...where, ...flags], { cwd: temp.root });
      expect(run.code, run.stderr).toBe(0);
      return run.stdout;
    };
    expect(await search()).not.toContain('ops/restore.md');
    const hopped = await search('--graph', '--format', 'text');
    expect(hopped).toContain('ops/restore.md');
    expect(hopped).toContain('pulled in by the graph hop (co_helpful) from ops/backup.md#Backup');
    const json = JSON.parse(await search('--graph', '--boost', '--explain', '--format', 'json')) as {
      results: { path: string; expanded_from?: unknown; explain: { boost?: number } }[];
    };
    expect(json.results.map((r) => r.path)).toEqual(['ops/backup.md', 'ops/restore.md']);
    expect(json.results[1]!.expanded_from).toEqual({
      kind: 'co_helpful',
      path: 'ops/backup.md',
      heading: 'Backup',
    });
    // One judgment is under the default floor of two: no boost yet, but the stage ran and says so.
    expect(json.results[0]!.explain.boost).toBe(0);
    temp.config({ toml: '[search.graph]\nenabled = true\n' });
    const configured = ['--config', `${temp.root}/groove.toml`];
    expect(await search(...configured)).toContain('ops/restore.md');
    expect(await search(...configured, '--no-graph')).not.toContain('ops/restore.md');
  });

  it('--legs runs one leg alone; vector on a lexical-only index answers no results and says why', async () => {
    const temp = createKb({
      'ops/backup.md': '# Backup\n\nHow the nightly backupalpha job copies the database to cold storage.\n',
    });
    const where = ['--kb-path', temp.kbPath, '--db-path', temp.dbPath];
    expect((await runGroove(['index', ...where, '--model', 'none'], { cwd: temp.root })).code).toBe(0);
    const search = async (...flags: string[]) => {
      const run = await runGroove(['search', 'backupalpha', ...where, ...flags], { cwd: temp.root });
      expect(run.code, run.stderr).toBe(0);
      return run.stdout;
    };
    const lexical = JSON.parse(await search('--legs', 'lexical')) as {
      results: { path: string }[];
      legs: Record<string, { reason?: string }>;
    };
    expect(lexical.results.map((r) => r.path)).toEqual(['ops/backup.md']);
    expect(lexical.legs.vector!.reason).toBe('not run: the request asked for legs: lexical');
    const vector = JSON.parse(await search('--legs', 'vector')) as {
      results: unknown[];
      legs: Record<string, { status: string; reason?: string }>;
    };
    expect(vector.results).toEqual([]);
    expect(vector.legs.lexical!.reason).toBe('not run: the request asked for legs: vector');
    expect(vector.legs.vector!.status).toBe('disabled');
    expect(vector.legs.vector!.reason).toMatch(/^no embedding model: this index is lexical-only/);
    const text = await search('--legs', 'vector', '--format', 'text');
    expect(text).toContain('[vector leg disabled: no embedding model: this index is lexical-only');
    expect(text).toContain('No results.');
    const refused = await runGroove(['search', 'backupalpha', ...where, '--legs', 'keywords'], {
      cwd: temp.root,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/legs must be one of both, lexical, vector/);
  });
});
