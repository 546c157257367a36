// A server's status board on a real index: the index and doctor parts are the CLI's JSON, the runner remembers
// its last runs (successes and failures) newest first, the doctor report is reused until it ages or a run ends,
// and a part that cannot be read (no index yet) is a problem of its own while the rest still reports.
import { afterEach, describe, expect, it } from 'vitest';
import {
  doctorReportToJson,
  IndexRunner,
  StatusBoard,
  serveStatusToJson,
  statusReportToJson,
} from '../../src/app/index.js';
import { emptyIndexSummary } from '../../src/app/indexing/index-events.js';
import type { KnowledgeBase } from '../../src/app/knowledge-base.js';
import { RECENT_RUNS_KEPT } from '../../src/app/serve/index-runner.js';
import { CountingEmbedder } from '../support/counting-embedder.js';
import { createServeKb, openTestKb, type ServeKb } from '../support/mcp-fixture.js';

describe('the serve status board', () => {
  let serveKb: ServeKb | null = null;
  let kb: KnowledgeBase | null = null;

  afterEach(async () => {
    await kb?.close();
    serveKb?.cleanup();
    kb = null;
    serveKb = null;
  });

  function open(): { kb: KnowledgeBase; serveKb: ServeKb } {
    serveKb = createServeKb();
    kb = openTestKb(serveKb, new CountingEmbedder());
    return { kb, serveKb };
  }

  it('reports the index and doctor as the CLI prints them, and the runs the runner finished', async () => {
    const { kb } = open();
    const runner = new IndexRunner(kb);
    await runner.sync();
    const board = new StatusBoard({ kb, runner, sync: null, version: '9.9.9' });
    const json = serveStatusToJson(board.read());
    expect(json.index).toEqual(statusReportToJson(kb.status()));
    expect(json.index).toMatchObject({
      documents: 6,
      chunks: 12,
      vectors: 12,
      model: 'test-counting:counting-8',
    });
    expect(json.doctor).toEqual(doctorReportToJson(kb.doctor()));
    expect(json).toMatchObject({
      version: '9.9.9',
      kb_path: kb.kbPath,
      index_error: null,
      doctor_error: null,
    });
    expect(json.watcher).toBeNull();
    const indexing = json.indexing as { active: unknown; completed_runs: number; recent_runs: unknown[] };
    expect(indexing.active).toBeNull();
    expect(indexing.completed_runs).toBe(1);
    expect(indexing.recent_runs).toEqual([
      {
        kind: 'sync',
        force: false,
        started_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        duration_ms: expect.any(Number),
        outcome: 'ok',
        summary: expect.objectContaining({ indexed: 6, documents: 6, embedded_chunks: 12 }),
        error: null,
      },
    ]);
  });

  it('keeps the last runs newest first, failures with their code, and no more than it should', async () => {
    let calls = 0;
    const runner = new IndexRunner({
      index: async () => {
        calls++;
        if (calls === 2) throw new Error('disk on fire');
        return emptyIndexSummary('none');
      },
    });
    await runner.sync();
    await expect(runner.sync()).rejects.toThrow('disk on fire');
    const [failed, succeeded] = runner.status().recentRuns;
    expect(failed).toMatchObject({
      kind: 'sync',
      summary: null,
      error: { code: 'INTERNAL', message: 'disk on fire' },
    });
    expect(succeeded).toMatchObject({ kind: 'sync', error: null, summary: { indexed: 0 } });
    for (let i = 0; i < RECENT_RUNS_KEPT + 3; i++) await runner.sync();
    expect(runner.status().recentRuns).toHaveLength(RECENT_RUNS_KEPT);
    expect(runner.status().completedRuns).toBe(RECENT_RUNS_KEPT + 5);
  });

  it('reuses the doctor report until it is older than the limit or a run finished', async () => {
    const { kb } = open();
    const runner = new IndexRunner(kb);
    await runner.sync();
    let clock = 1_000_000;
    let doctorRuns = 0;
    const counted = {
      kbPath: kb.kbPath,
      status: () => kb.status(),
      doctor: () => {
        doctorRuns++;
        return kb.doctor();
      },
    };
    const board = new StatusBoard({
      kb: counted,
      runner,
      sync: null,
      version: 't',
      now: () => clock,
      doctorMaxAgeMs: 10_000,
    });
    board.read();
    clock += 9_000;
    expect(board.read().doctorCheckedAt).toBe(1_000_000);
    expect(doctorRuns).toBe(1);
    clock += 1_000;
    expect(board.read().doctorCheckedAt).toBe(1_010_000);
    expect(doctorRuns).toBe(2);
    await runner.sync();
    board.read();
    expect(doctorRuns).toBe(3);
  });

  it('reports a missing index as a problem while the runner and watcher still report', async () => {
    const { kb } = open();
    const runner = new IndexRunner(kb);
    const sync = {
      stats: () => ({
        phase: 'idle' as const,
        waitingForWriter: false,
        lastFailure: null,
        events: 3,
        runs: 0,
        failures: 0,
        refused: 0,
        pendingPaths: 0,
      }),
    };
    const json = serveStatusToJson(new StatusBoard({ kb, runner, sync, version: 't' }).read());
    expect(json.index).toBeNull();
    expect(json.index_error).toMatchObject({ code: 'INDEX_NOT_FOUND', hint: expect.any(String) });
    expect(json.doctor).toBeNull();
    expect(json.doctor_error).toMatchObject({ code: 'INDEX_NOT_FOUND' });
    expect(json.watcher).toEqual({
      phase: 'idle',
      waiting_for_writer: false,
      last_failure: null,
      events: 3,
      runs: 0,
      failures: 0,
      refused: 0,
      pending_paths: 0,
    });
  });
});
