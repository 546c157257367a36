// A receipt from record_feedback means the judgment is durable, even when ANOTHER process runs
// `groove index --force` meanwhile: a real `groove serve` (stdio, the SDK's client) records feedback in a tight
// loop while separate `groove index --force` processes rebuild the same index. Every receipt's serve_id must be
// in the final file exactly once, with its items, and no serve_id may be handed out twice. Skipped when dist/
// has not been built (`npm test` builds first).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createServeKb, repoRoot, type ServeKb } from '../support/mcp-fixture.js';

const run = promisify(execFile);
const bin = path.join(repoRoot, 'bin/groove.js');
const built = fs.existsSync(path.join(repoRoot, 'dist/src/cli/cmd-serve.js'));
const childEnv = { ...process.env, GROOVE_OFFLINE: '1' } as Record<string, string>;

const REBUILDS = 6;
const WRITERS = 3;

interface Receipt {
  serveId: number;
  taskId: string;
  items: number;
}

describe.skipIf(!built)('record_feedback while another process rebuilds the index', () => {
  let serveKb: ServeKb | null = null;
  afterEach(() => {
    serveKb?.cleanup();
    serveKb = null;
  });

  it('keeps every receipted judgment exactly once and never reuses a serve_id', async () => {
    serveKb = createServeKb({ model: 'none' });
    // The writer records as fast as it can: this test is about the rebuild, not the per-client rate.
    const config = path.join(serveKb.root, 'groove.toml');
    fs.writeFileSync(config, '[feedback]\njudgments_per_minute = 100000\n');
    const flags = ['--kb-path', serveKb.kbPath, '--db-path', serveKb.dbPath, '--config', config];
    await run(process.execPath, [bin, 'index', ...flags, '--model', 'none', '--quiet'], { env: childEnv });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'serve', ...flags, '--no-watch'],
      env: childEnv,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'groove-e2e', version: '1.0.0' });
    await client.connect(transport);

    const receipts: Receipt[] = [];
    const failures: string[] = [];
    let next = 0;
    let rebuilding = true;
    const writer = async () => {
      while (rebuilding) {
        const n = next++;
        const taskId = `task-${n}`;
        const items = 1 + (n % 3);
        const result = (await client.callTool({
          name: 'record_feedback',
          arguments: {
            task_id: taskId,
            query: `query number ${n}`,
            items: Array.from({ length: items }, (_, i) => ({
              path: `ops/judged-${n}-${i}.md`,
              verdict: i === 0 ? 'helped' : 'noise',
            })),
          },
        })) as CallToolResult;
        if (result.isError) failures.push(JSON.stringify(result.content));
        else
          receipts.push({
            serveId: (result.structuredContent as { serve_id: number }).serve_id,
            taskId,
            items,
          });
      }
    };
    const rebuilds = (async () => {
      try {
        for (let i = 0; i < REBUILDS; i++) {
          await run(process.execPath, [bin, 'index', ...flags, '--model', 'none', '--force', '--quiet'], {
            env: childEnv,
          });
        }
      } finally {
        rebuilding = false;
      }
    })();
    try {
      await Promise.all([rebuilds, ...Array.from({ length: WRITERS }, writer)]);
    } finally {
      await client.close();
    }

    expect(failures).toEqual([]);
    expect(receipts.length).toBeGreaterThan(REBUILDS * 5);
    const ids = receipts.map((r) => r.serveId);
    const db = new Database(serveKb.dbPath, { readonly: true, fileMustExist: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const stored = new Map(
        (
          db
            .prepare(`SELECT s.id AS serveId, s.task_id AS taskId, count(i.position) AS items
              FROM feedback_serves s LEFT JOIN feedback_items i ON i.serve_id = s.id GROUP BY s.id`)
            .all() as Receipt[]
        ).map((row) => [row.serveId, row]),
      );
      const lost = receipts.filter((r) => {
        const row = stored.get(r.serveId);
        return row?.taskId !== r.taskId || row.items !== r.items;
      });
      expect({
        receipts: receipts.length,
        idsHandedOutTwice: ids.length - new Set(ids).size,
        lost: lost.length,
        rowsWithoutReceipt: stored.size - receipts.length,
      }).toEqual({ receipts: receipts.length, idsHandedOutTwice: 0, lost: 0, rowsWithoutReceipt: 0 });
    } finally {
      db.close();
    }
    expect(stderr).not.toMatch(/\n\s+at /); // no stack trace in the server's log
  }, 120_000);
});
