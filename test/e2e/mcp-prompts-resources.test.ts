// MCP prompts, kb:// resources and get_best_practice through a real SDK client: groups are listed and read as
// Markdown lists of document addresses, a document address reads like get_document (with its refusals), and a
// best-practice template finds its document or one `## section` of it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnowledgeBase } from '../../src/app/index.js';
import { openKnowledgeBase } from '../../src/app/index.js';
import { resolveConfig } from '../../src/config/resolve-config.js';
import {
  type ConnectedClient,
  connectInMemory,
  createServeKb,
  note,
  type ServeKb,
  textOf,
} from '../support/mcp-fixture.js';

const PRACTICE = [
  '---',
  'title: TypeScript practice',
  '---',
  '# TypeScript',
  '',
  'Intro words about typescriptalpha.',
  '',
  '## Testing',
  '',
  'Write tests that fail first; typescriptbeta.',
  '',
  '## Naming',
  '',
  'Names explain themselves.',
  '',
].join('\n');

/** The text of a resource content item (these resources are all text). */
function textContent(item: object): string {
  return 'text' in item && typeof item.text === 'string' ? item.text : '';
}

describe('MCP prompts, resources and get_best_practice', () => {
  let serveKb: ServeKb;
  let kb: KnowledgeBase;
  let connected: ConnectedClient;

  beforeAll(async () => {
    serveKb = createServeKb({ model: 'none' });
    serveKb.write('best-practices/typescript/PERFECT.md', PRACTICE);
    serveKb.write('ja/売上 報告.md', note('uriage'));
    fs.writeFileSync(
      path.join(serveKb.root, 'groove.toml'),
      '[best_practice]\npath_templates = ["nothing/{target}.md", "best-practices/{target}/PERFECT.md"]\n',
    );
    const config = resolveConfig({
      configPath: path.join(serveKb.root, 'groove.toml'),
      cwd: serveKb.root,
      env: {},
      overrides: { kbPath: serveKb.kbPath, dbPath: serveKb.dbPath, model: 'none' },
    });
    kb = openKnowledgeBase(config);
    await kb.index();
    connected = await connectInMemory(kb);
  });

  afterAll(async () => {
    await connected?.close();
    await kb?.close();
    serveKb?.cleanup();
  });

  it('lists four prompts whose text carries the citation rules', async () => {
    const { prompts } = await connected.client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual([
      'deep_dive',
      'find_gaps',
      'summarize_topic',
      'whats_new',
    ]);
    const summary = await connected.client.getPrompt({
      name: 'summarize_topic',
      arguments: { topic: 'ops' },
    });
    const text = (summary.messages[0]!.content as { text: string }).text;
    expect(text).toContain('"ops"');
    expect(text).toMatch(/cite every claim with the `path`/);
    expect(text).toContain('low_confidence');
    const since = await connected.client.getPrompt({ name: 'whats_new', arguments: { since: '2026-02-01' } });
    expect((since.messages[0]!.content as { text: string }).text).toContain('date_from "2026-02-01"');
    const fallback = await connected.client.getPrompt({ name: 'whats_new', arguments: {} });
    expect((fallback.messages[0]!.content as { text: string }).text).toMatch(/since \d{4}-\d{2}-\d{2}\./);
    await expect(
      connected.client.getPrompt({ name: 'whats_new', arguments: { since: '2026-02-30' } }),
    ).rejects.toThrow(/since must be a date that exists/);
  });

  it('lists the folder groups, and reads one as a Markdown list of document addresses', async () => {
    const { resources } = await connected.client.listResources();
    const uris = resources.map((r) => r.uri).sort();
    expect(uris).toEqual(
      expect.arrayContaining([
        'kb://topic/',
        'kb://topic/guides',
        'kb://topic/guides%2Fsetup',
        'kb://topic/ops',
      ]),
    );
    expect(uris.some((uri) => uri.startsWith('kb://doc/'))).toBe(false);
    const read = await connected.client.readResource({ uri: 'kb://topic/guides%2Fsetup' });
    const text = textContent(read.contents[0]!);
    expect(read.contents[0]!.mimeType).toBe('text/markdown');
    expect(text).toContain('(kb://doc/guides%2Fsetup%2Finstall.md) — guides/setup/install.md');
    expect(text).toContain('guides/setup/configure.md');
    expect(text).not.toContain('ops/backup.md');
    const root = await connected.client.readResource({ uri: 'kb://topic/' });
    expect(textContent(root.contents[0]!)).toContain('kb://doc/ops%2Fbackup.md');
    await expect(connected.client.readResource({ uri: 'kb://topic/nowhere' })).rejects.toThrow(
      /no indexed documents under "nowhere\/"/,
    );
  });

  it('reads a document address like get_document, Japanese paths included, and refuses what get_document refuses', async () => {
    const read = await connected.client.readResource({ uri: 'kb://doc/ops%2Fbackup.md' });
    expect(read.contents[0]).toMatchObject({ uri: 'kb://doc/ops%2Fbackup.md', mimeType: 'text/markdown' });
    expect(textContent(read.contents[0]!)).toBe(
      fs.readFileSync(path.join(serveKb.kbPath, 'ops/backup.md'), 'utf8'),
    );
    const japanese = `kb://doc/${encodeURIComponent('ja/売上 報告.md')}`;
    expect(textContent((await connected.client.readResource({ uri: japanese })).contents[0]!)).toContain(
      'uriagealpha',
    );
    await expect(connected.client.readResource({ uri: 'kb://doc/..%2Fgroove.toml' })).rejects.toThrow(/\.\./);
    await expect(connected.client.readResource({ uri: 'kb://doc/nope.md' })).rejects.toThrow(/not/);
    await expect(connected.client.readResource({ uri: 'kb://doc/%E0%A4%A' })).rejects.toThrow(/not a valid/);
  });

  it('gives each search hit the address of its document', async () => {
    const result = await connected.client.callTool({ name: 'search', arguments: { query: 'backupalpha' } });
    const hits = (result.structuredContent as { results: { path: string; uri: string }[] }).results;
    expect(hits[0]).toMatchObject({ path: 'ops/backup.md', uri: 'kb://doc/ops%2Fbackup.md' });
  });

  it('get_best_practice finds the first template that names a document, and one section of it', async () => {
    const call = (args: Record<string, unknown>) =>
      connected.client.callTool({ name: 'get_best_practice', arguments: args });
    const whole = await call({ target: 'typescript' });
    expect(whole.isError).toBeFalsy();
    expect(whole.structuredContent).toMatchObject({
      target: 'typescript',
      path: 'best-practices/typescript/PERFECT.md',
      content: PRACTICE,
    });
    const section = await call({ target: 'typescript', category: 'testing' });
    expect((section.structuredContent as { content: string }).content).toBe(
      '## Testing\n\nWrite tests that fail first; typescriptbeta.',
    );
    const missingSection = await call({ target: 'typescript', category: 'deploying' });
    expect(missingSection.isError).toBe(true);
    expect(textOf(missingSection)).toContain('no "## deploying" section');
    const unknown = await call({ target: 'rust' });
    expect(textOf(unknown)).toContain('no best-practice document for "rust" (2 path templates tried)');
    const traversal = await call({ target: '../ops' });
    expect(traversal.isError).toBe(true);
    expect(textOf(traversal)).toContain('target must be a name, not a path');
  });

  it('get_best_practice without templates is not offered, nor named in the instructions', async () => {
    const plain = openKnowledgeBase(
      resolveConfig({
        cwd: serveKb.kbPath,
        env: {},
        overrides: { kbPath: serveKb.kbPath, dbPath: serveKb.dbPath },
      }),
    );
    const client = await connectInMemory(plain);
    try {
      const { tools } = await client.client.listTools();
      expect(tools.map((tool) => tool.name)).not.toContain('get_best_practice');
      expect(client.client.getInstructions()).not.toContain('get_best_practice');
      expect((await connected.client.listTools()).tools.map((tool) => tool.name)).toContain(
        'get_best_practice',
      );
      expect(connected.client.getInstructions()).toContain('get_best_practice');
    } finally {
      await client.close();
      await plain.close();
    }
  });
});
