// record_feedback's bounds: one client's judged items per minute (a burst past it refused at once, refilled
// with time, other clients unaffected) and the index's total, each refused with its code and nothing stored.
// Real index file, the KnowledgeBase facade and, for the per-client budget, two MCP clients in memory.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KnowledgeBase, openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { GrooveError } from '../../src/errors.js';
import { countJudgedItems } from '../../src/store/feedback-store.js';
import { openDatabase } from '../../src/store/open-database.js';
import {
  type ConnectedClient,
  connectInMemory,
  createServeKb,
  type ServeKb,
  textOf,
} from '../support/mcp-fixture.js';

const items = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    path: 'ops/backup.md',
    heading: `H${i}`,
    verdict: 'helped' as const,
  }));
const record = (n: number) => ({ taskId: 'T-1', query: 'backup', items: items(n) });

async function refusal(work: Promise<unknown>): Promise<GrooveError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GrooveError);
  return error as GrooveError;
}

describe('record_feedback bounds', () => {
  let serveKb: ServeKb;
  let kb: KnowledgeBase;
  let clock = Date.parse('2026-05-01T12:00:00.000Z');
  const stored = () => {
    const db = openDatabase(serveKb.dbPath, { readonly: true });
    try {
      return countJudgedItems(db);
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    serveKb = createServeKb({ model: 'none' });
    serveKb.config.feedback = { judgmentsPerMinute: 10, maxJudgments: 40 };
    kb = openKnowledgeBase(serveKb.config, { createEmbedder: async () => null, now: () => new Date(clock) });
    await kb.index();
  });

  afterAll(async () => {
    await kb?.close();
    serveKb?.cleanup();
  });

  it('refuses a burst past one client’s rate with FEEDBACK_RATE_LIMITED, storing nothing, and refills with time', async () => {
    const client = kb.newFeedbackBudget();
    await kb.recordFeedback(record(4), { budget: client });
    await kb.recordFeedback(record(4), { budget: client });
    const refused = await refusal(kb.recordFeedback(record(4), { budget: client }));
    expect(refused.code).toBe('FEEDBACK_RATE_LIMITED');
    expect(refused.toLine()).toMatch(/10 judged items a minute; these 4 were not stored \(try again in 12 s/);
    expect(stored()).toBe(8);

    // Another client has its own budget.
    await kb.recordFeedback(record(4), { budget: kb.newFeedbackBudget() });
    expect(stored()).toBe(12);

    // 30 s later the first client has 2 + 5 items again.
    clock += 30_000;
    await kb.recordFeedback(record(7), { budget: client });
    expect((await refusal(kb.recordFeedback(record(1), { budget: client }))).code).toBe(
      'FEEDBACK_RATE_LIMITED',
    );

    // One call past a whole minute's worth can never pass: said so, not "wait".
    clock += 600_000;
    const tooBig = await refusal(kb.recordFeedback(record(11), { budget: client }));
    expect(tooBig.code).toBe('FEEDBACK_RATE_LIMITED');
    expect(tooBig.toLine()).toMatch(/11 judged items in one call; this server takes at most 10 a minute/);
    expect(stored()).toBe(19);
  });

  it('keeps the index’s total at max_judgments: the call that would pass it is refused with FEEDBACK_FULL', async () => {
    const before = stored();
    let accepted = before;
    for (let i = 0; i < 10; i++) {
      clock += 60_000;
      const result = await kb.recordFeedback(record(7), { budget: kb.newFeedbackBudget() }).then(
        () => 'stored',
        (e: unknown) => e,
      );
      if (result === 'stored') accepted += 7;
      else {
        expect((result as GrooveError).code).toBe('FEEDBACK_FULL');
        expect((result as GrooveError).toLine()).toMatch(
          /holds 40 judged items and keeps at most 40|keeps at most 40/,
        );
      }
    }
    expect(accepted).toBeLessThanOrEqual(40);
    expect(accepted).toBeGreaterThan(40 - 7);
    expect(stored()).toBe(accepted);
    // One item still fits when there is room for it, never past the cap.
    const room = 40 - accepted;
    if (room > 0) await kb.recordFeedback(record(room), { budget: kb.newFeedbackBudget() });
    expect((await refusal(kb.recordFeedback(record(1), { budget: kb.newFeedbackBudget() }))).code).toBe(
      'FEEDBACK_FULL',
    );
    expect(stored()).toBe(40);
  });
});

describe('record_feedback over MCP: each client session has its own rate', () => {
  let serveKb: ServeKb;
  let kb: KnowledgeBase;
  let first: ConnectedClient;
  let second: ConnectedClient;

  beforeAll(async () => {
    serveKb = createServeKb({ model: 'none' });
    serveKb.config.feedback = { judgmentsPerMinute: 5, maxJudgments: 1000 };
    kb = openKnowledgeBase(serveKb.config, { createEmbedder: async () => null });
    await kb.index();
    first = await connectInMemory(kb);
    second = await connectInMemory(kb);
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await kb?.close();
    serveKb?.cleanup();
  });

  const call = (client: ConnectedClient, n: number) =>
    client.client.callTool({
      name: 'record_feedback',
      arguments: { task_id: 'T', query: 'backup', items: items(n) },
    }) as Promise<CallToolResult>;

  it('refuses the second burst of one session and still takes another session’s', async () => {
    expect((await call(first, 3)).isError).toBeFalsy();
    const refused = await call(first, 3);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /^record_feedback failed: record_feedback: this client recorded its 5 judged items a minute; these 3 were not stored \(try again in \d+ s, or raise \[feedback\] judgments_per_minute/,
    );
    expect((await call(second, 3)).isError).toBeFalsy();
  });
});
