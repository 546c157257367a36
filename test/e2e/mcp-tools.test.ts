// The MCP tools through the SDK's own Client over its in-memory transport: same JSON as the CLI search,
// validation errors that say how to fix the call, get_document's refusals, topics, the graph and rebuild_index.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnowledgeBase } from '../../src/app/knowledge-base.js';
import { searchResponseToJson } from '../../src/app/search/search-types.js';
import { CountingEmbedder } from '../support/counting-embedder.js';
import {
  type ConnectedClient,
  connectInMemory,
  createServeKb,
  note,
  openTestKb,
  type ServeKb,
  textOf,
  withDocumentUris,
} from '../support/mcp-fixture.js';

describe('MCP tools (in-memory transport, counting embedder)', () => {
  let serveKb: ServeKb;
  let kb: KnowledgeBase;
  let connected: ConnectedClient;

  beforeAll(async () => {
    serveKb = createServeKb();
    serveKb.write('big/huge.md', `# Huge\n\n${'A long line of words about hugealpha. '.repeat(30_000)}\n`);
    serveKb.write('links/real/target.md', note('target'));
    serveKb.write('links/hard.md', note('hardlinked'));
    kb = openTestKb(serveKb);
    await kb.index();
    connected = await connectInMemory(kb);
  });

  afterAll(async () => {
    await connected?.close();
    await kb?.close();
    serveKb?.cleanup();
  });

  const call = (name: string, args: Record<string, unknown> = {}) =>
    connected.client.callTool({ name, arguments: args });

  it('lists the tools with descriptions and strict input schemas', async () => {
    const { tools } = await connected.client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual([
      'get_connection_graph',
      'get_document',
      'list_topics',
      'rebuild_index',
      'record_feedback',
      'search',
    ]);
    const search = tools.find((t) => t.name === 'search')!;
    expect(search.description).toMatch(/hybrid/i);
    expect(search.inputSchema.required).toEqual(['query']);
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining([
        'limit',
        'path_globs',
        'tags_any',
        'mmr_lambda',
        'parent_retriever',
        'explain',
      ]),
    );
  });

  it('search answers with exactly the JSON of the CLI search plus a uri per hit, as text and structured content', async () => {
    const result = await call('search', { query: 'backupalpha', limit: 3 });
    expect(result.isError).toBeFalsy();
    const direct = searchResponseToJson(await kb.search({ query: 'backupalpha', limit: 3 }));
    expect(result.structuredContent).toEqual(withDocumentUris(direct));
    expect(JSON.parse(textOf(result))).toEqual(withDocumentUris(direct));
    expect((direct.results as { path: string }[]).map((r) => r.path)).toContain('ops/backup.md');
  });

  it('search maps every snake_case filter onto the same pipeline', async () => {
    const result = await call('search', {
      query: 'section',
      limit: 10,
      path_globs: ['guides/**', '!guides/password-reset.md'],
      tags_any: ['setup'],
      include_low_quality: true,
      mmr: true,
      mmr_lambda: 0.5,
      explain: true,
    });
    const json = result.structuredContent as {
      results: { path: string; explain?: unknown }[];
      filter_applied: object;
    };
    const paths = new Set(json.results.map((r) => r.path));
    expect([...paths].sort()).toEqual(['guides/setup/configure.md', 'guides/setup/install.md']);
    expect(json.results[0]!.explain).toBeDefined();
    expect(json.filter_applied).toMatchObject({ path_globs: expect.any(Array), tags_any: ['setup'] });
  });

  it('search runs one retrieval leg alone with legs, the other reported disabled by the request', async () => {
    const { tools } = await connected.client.listTools();
    const legsSchema = tools.find((t) => t.name === 'search')!.inputSchema.properties?.legs as {
      enum?: string[];
    };
    expect(legsSchema.enum).toEqual(['both', 'lexical', 'vector']);
    for (const [only, other] of [
      ['lexical', 'vector'],
      ['vector', 'lexical'],
    ] as const) {
      const result = await call('search', { query: 'backupalpha', limit: 3, legs: only, explain: true });
      expect(result.isError).toBeFalsy();
      const json = result.structuredContent as {
        results: { explain: { ranks: Record<string, number> } }[];
        legs: Record<string, { status: string; reason?: string }>;
      };
      expect(json.legs[other]).toEqual({
        status: 'disabled',
        candidates: 0,
        reason: `not run: the request asked for legs: ${only}`,
      });
      expect(json.legs[only]!.status).toBe('ok');
      for (const hit of json.results) expect(Object.keys(hit.explain.ranks)).toEqual([only]);
    }
    const wrong = await call('search', { query: 'x', legs: 'keywords' });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/legs must be one of both, lexical, vector/);
  });

  it('search times its stages when asked (timings), and only then', async () => {
    const { tools } = await connected.client.listTools();
    expect(tools.find((t) => t.name === 'search')!.inputSchema.properties).toHaveProperty('timings');
    const timed = await call('search', { query: 'backupalpha', limit: 3, legs: 'lexical', timings: true });
    expect(timed.isError).toBeFalsy();
    const { timings_ms: timings } = timed.structuredContent as { timings_ms: Record<string, number> };
    expect(Object.keys(timings)).toContain('total');
    expect(Object.keys(timings)).not.toContain('vector');
    for (const ms of Object.values(timings)) expect(ms).toBeGreaterThanOrEqual(0);
    const untimed = await call('search', { query: 'backupalpha', limit: 3 });
    expect(untimed.structuredContent).not.toHaveProperty('timings_ms');
  });

  it('search with max_tokens answers passages within the budget and reports tokens_used', async () => {
    const { tools } = await connected.client.listTools();
    const search = tools.find((t) => t.name === 'search')!;
    expect(search.inputSchema.properties).toHaveProperty('max_tokens');
    expect(search.description).toMatch(/tokens_used/);
    const result = await call('search', { query: 'backupalpha', limit: 5, max_tokens: 60 });
    expect(result.isError).toBeFalsy();
    const json = result.structuredContent as {
      results: { path: string; content: string; tokens: number; line_start: number | null }[];
      max_tokens: number;
      tokens_used: number;
      token_counter: string;
    };
    expect(json.max_tokens).toBe(60);
    expect(json.token_counter).toBe('estimate');
    expect(json.results.length).toBeGreaterThan(0);
    expect(json.tokens_used).toBe(json.results.reduce((sum, r) => sum + r.tokens, 0));
    expect(json.tokens_used).toBeLessThanOrEqual(60);
    const texts = json.results.map((r) => r.content);
    expect(new Set(texts).size).toBe(texts.length);
    const direct = searchResponseToJson(await kb.search({ query: 'backupalpha', limit: 5, maxTokens: 60 }));
    expect(result.structuredContent).toEqual(withDocumentUris(direct));
    const tiny = await call('search', { query: 'x', max_tokens: 5 });
    expect(tiny.isError).toBe(true);
    expect(textOf(tiny)).toMatch(/max_tokens must be a whole number from 16 to 100000/);
  });

  it('refuses bad arguments with an isError result that says how to fix the call', async () => {
    const zeroLimit = await call('search', { query: 'x', limit: 0 });
    expect(zeroLimit.isError).toBe(true);
    expect(textOf(zeroLimit)).toMatch(/limit must be a whole number from 1 to 1000/);
    const textLimit = await call('search', { query: 'x', limit: 'ten' });
    expect(textLimit.isError).toBe(true);
    expect(textOf(textLimit)).toMatch(/limit must be a whole number from 1 to 1000/);
    expect(textOf(textLimit)).not.toMatch(/Invalid input|expected number/);

    const misspelt = await call('search', { query: 'x', limt: 3 });
    expect(misspelt.isError).toBe(true);
    expect(textOf(misspelt)).toMatch(/limt/);

    const longQuery = await call('search', { query: 'x'.repeat(2000) });
    expect(longQuery.isError).toBe(true);
    expect(textOf(longQuery)).toMatch(/at most 1024 bytes/);

    const emptyGlobs = await call('search', { query: 'x', path_globs: [] });
    expect(textOf(emptyGlobs)).toMatch(/at least one glob/);

    const dates = await call('search', { query: 'x', date_from: '2026-05-01', date_to: '2026-01-01' });
    expect(textOf(dates)).toMatch(/swap the two dates/);
  });

  it('answers an unknown tool with an isError result', async () => {
    const result = await call('no_such_tool', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/no_such_tool not found/);
  });

  it('get_document returns an indexed file by its exact path', async () => {
    const result = await call('get_document', { path: 'guides/password-reset.md' });
    expect(result.isError).toBeFalsy();
    const doc = result.structuredContent as Record<string, unknown>;
    expect(doc).toMatchObject({
      path: 'guides/password-reset.md',
      title: 'Note about password',
      date: '2026-03-14',
      topic: 'accounts',
      tags: ['account'],
      truncated: false,
    });
    expect(doc.content).toBe(fs.readFileSync(path.join(serveKb.kbPath, 'guides/password-reset.md'), 'utf8'));
  });

  it('get_document refuses absolute paths, "..", other spellings and unindexed files', async () => {
    const cases: [string, RegExp][] = [
      [path.join(serveKb.kbPath, 'readme.md'), /absolute/],
      ['guides/../readme.md', /"\.\."/],
      ['./readme.md', /empty or "\." segment/],
      ['guides//password-reset.md', /empty or "\." segment/],
      ['guides\\password-reset.md', /backslash/],
      ['README.md', /not an indexed document/],
      ['../outside.md', /"\.\."/],
    ];
    for (const [requested, message] of cases) {
      const result = await call('get_document', { path: requested });
      expect(result.isError, requested).toBe(true);
      expect(textOf(result), requested).toMatch(message);
    }
  });

  it('get_document refuses a symlinked parent folder, a hard link and text over 1 MiB', async () => {
    const big = await call('get_document', { path: 'big/huge.md' });
    expect(big.isError).toBe(true);
    expect(textOf(big)).toMatch(/over the 1048576-byte cap.*1 MiB/);

    // Indexed as real files; then the folder becomes a link and the file gains a second name.
    const linkDir = path.join(serveKb.kbPath, 'links', 'real');
    const elsewhere = path.join(serveKb.root, 'elsewhere');
    fs.renameSync(linkDir, elsewhere);
    fs.symlinkSync(elsewhere, linkDir);
    fs.linkSync(path.join(serveKb.kbPath, 'links/hard.md'), path.join(serveKb.root, 'second-name.md'));

    const linked = await call('get_document', { path: 'links/real/target.md' });
    expect(linked.isError).toBe(true);
    expect(textOf(linked)).toMatch(/symbolic link/);
    const hard = await call('get_document', { path: 'links/hard.md' });
    expect(hard.isError).toBe(true);
    expect(textOf(hard)).toMatch(/hard link/);
  });

  it('list_topics groups documents by category and topic with counts, dates, titles and folders', async () => {
    const result = await call('list_topics');
    const listing = result.structuredContent as {
      total_documents: number;
      topics: { category: string | null; topic: string | null; file_count: number; titles: string[] }[];
    };
    expect(listing.total_documents).toBe(9);
    const setup = listing.topics.find((t) => t.category === 'guides' && t.topic === 'setup');
    expect(setup).toMatchObject({ file_count: 2, last_updated: '2026-02-01' });
    expect(setup!.titles.sort()).toEqual(['Note about configure', 'Note about install']);
    const accounts = listing.topics.find((t) => t.topic === 'accounts');
    expect(accounts).toMatchObject({ category: 'guides', file_count: 1 });
    const links = listing.topics.find((t) => t.category === 'links' && t.topic === 'real');
    expect(links?.file_count).toBe(1);
    expect(listing.topics.reduce((sum, t) => sum + t.file_count, 0)).toBe(9);
  });

  it('get_connection_graph walks vector neighbours breadth-first within depth, fan-out and budget', async () => {
    const result = await call('get_connection_graph', {
      start: 'ops/backup.md',
      depth: 2,
      fan_out: 2,
      min_similarity: 0,
    });
    expect(result.isError).toBeFalsy();
    const graph = result.structuredContent as {
      start_path: string;
      nodes: { node_id: number; parent_id: number | null; depth: number; path: string; snippet: string }[];
      stats: { total_nodes: number; knn_queries: number; seeds_used: number };
    };
    expect(graph.start_path).toBe('ops/backup.md');
    const seeds = graph.nodes.filter((n) => n.parent_id === null);
    expect(seeds.length).toBe(graph.stats.seeds_used);
    expect(seeds.every((n) => n.depth === 0 && n.path === 'ops/backup.md')).toBe(true);
    const children = graph.nodes.filter((n) => n.parent_id !== null);
    expect(children.length).toBeGreaterThan(0);
    for (const child of children) {
      const parent = graph.nodes[child.parent_id!]!;
      expect(child.depth).toBe(parent.depth + 1);
      expect(child.depth).toBeLessThanOrEqual(2);
      expect(child.path).not.toBe('ops/backup.md');
      expect(child.snippet.length).toBeLessThanOrEqual(200);
    }
    // dedup_by_path (default): one node per neighbour document.
    expect(new Set(children.map((n) => n.path)).size).toBe(children.length);
    const perParent = new Map<number, number>();
    for (const child of children) perParent.set(child.parent_id!, (perParent.get(child.parent_id!) ?? 0) + 1);
    expect(Math.max(...perParent.values())).toBeLessThanOrEqual(2);
    expect(graph.stats.total_nodes).toBe(graph.nodes.length);
    expect(graph.stats.knn_queries).toBeLessThanOrEqual(graph.stats.total_nodes);
  });

  it('get_connection_graph reports a node budget cut, honours exclusions and refuses an unknown start', async () => {
    const cut = await call('get_connection_graph', {
      start: 'ops/backup.md',
      min_similarity: 0,
      max_nodes: 3,
      exclude_paths: ['guides/'],
    });
    const graph = cut.structuredContent as {
      truncated: boolean;
      truncation: { reason: string; limit: number; remedy: string }[];
      nodes: { path: string }[];
    };
    expect(graph.nodes.length).toBe(3);
    expect(graph.truncated).toBe(true);
    expect(graph.truncation).toContainEqual(expect.objectContaining({ reason: 'node_budget', limit: 3 }));
    expect(graph.nodes.some((n) => n.path.startsWith('guides/'))).toBe(false);

    const centroid = await call('get_connection_graph', {
      start: 'ops/backup.md',
      seed_strategy: 'centroid',
      max_seed_chunks: 1,
      min_similarity: 0,
      depth: 1,
    });
    const centroidGraph = centroid.structuredContent as {
      nodes: { chunk_id: number | null; parent_id: number | null }[];
      truncation: { reason: string; limit: number }[];
      stats: { seeds_used: number };
    };
    expect(centroidGraph.nodes.filter((n) => n.parent_id === null)).toEqual([
      expect.objectContaining({ chunk_id: null }),
    ]);
    expect(centroidGraph.truncation).toContainEqual(
      expect.objectContaining({ reason: 'seed_chunks', limit: 1 }),
    );
    expect(centroidGraph.stats.seeds_used).toBe(1);

    const unknown = await call('get_connection_graph', { start: 'nope.md' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/not an indexed document/);
    const deep = await call('get_connection_graph', { start: 'ops/backup.md', depth: 4 });
    expect(textOf(deep)).toMatch(/depth must be 1, 2 or 3/);
  });

  it('rebuild_index returns counts', async () => {
    serveKb.write('ops/new-runbook.md', note('runbook'));
    const result = await call('rebuild_index', {});
    expect(result.isError).toBeFalsy();
    // links/real became a symlink in an earlier test: the walk never follows it, so its note leaves the index.
    expect(result.structuredContent).toMatchObject({ indexed: 1, deleted: 1, documents: 9 });
    const found = await call('search', { query: 'runbookalpha' });
    expect(pathsOf(found)).toContain('ops/new-runbook.md');
  });
});

/** Result paths of a search tool call (the counting embedder's vectors are arbitrary, so ranks are not asserted). */
function pathsOf(result: unknown): string[] {
  return (result as { structuredContent: { results: { path: string }[] } }).structuredContent.results.map(
    (r) => r.path,
  );
}

/** An embedder whose document embedding waits for `release()`: holds a rebuild open for as long as a test needs. */
class GatedEmbedder extends CountingEmbedder {
  private gate: Promise<void> | null = null;
  private open: () => void = () => {};
  hold(): void {
    this.gate = new Promise((resolve) => {
      this.open = resolve;
    });
  }
  release(): void {
    this.open();
    this.gate = null;
  }
  override async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    await this.gate;
    return super.embedDocuments(texts);
  }
}

describe('rebuild_index while serving', () => {
  it('refuses a second rebuild with how long the first has run, and searches keep answering', async () => {
    const serveKb = createServeKb();
    const embedder = new GatedEmbedder();
    const kb = openTestKb(serveKb, embedder);
    await kb.index();
    const connected = await connectInMemory(kb);
    try {
      embedder.hold();
      const first = connected.client.callTool({ name: 'rebuild_index', arguments: { force: true } });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const second = await connected.client.callTool({ name: 'rebuild_index', arguments: {} });
      expect(second.isError).toBe(true);
      expect(textOf(second)).toMatch(/has been running for \d+\.\d s/);

      const during = await connected.client.callTool({
        name: 'search',
        arguments: { query: 'restorealpha' },
      });
      expect(pathsOf(during)).toContain('ops/restore.md');

      embedder.release();
      const done = await first;
      expect(done.isError).toBeFalsy();
      expect(done.structuredContent).toMatchObject({ documents: 6, indexed: 6 });
      // The swapped-in file answers: the session was reopened on the new index.
      const after = await connected.client.callTool({ name: 'search', arguments: { query: 'installbeta' } });
      expect(pathsOf(after)).toContain('guides/setup/install.md');
      const third = await connected.client.callTool({ name: 'rebuild_index', arguments: {} });
      expect(third.isError).toBeFalsy();
    } finally {
      embedder.release();
      await connected.close();
      await kb.close();
      serveKb.cleanup();
    }
  });

  it('get_connection_graph on a lexical-only index returns the seeds and says vectors would add neighbours', async () => {
    const serveKb = createServeKb({ model: 'none' });
    const kb = openTestKb(serveKb);
    await kb.index();
    const connected = await connectInMemory(kb);
    try {
      const result = await connected.client.callTool({
        name: 'get_connection_graph',
        arguments: { start: 'ops/backup.md' },
      });
      expect(result.isError).toBeFalsy();
      const graph = result.structuredContent as {
        nodes: { parent_id: number | null; path: string }[];
        truncation: { reason: string; remedy: string }[];
      };
      expect(graph.nodes.length).toBeGreaterThan(0);
      expect(graph.nodes.every((node) => node.parent_id === null && node.path === 'ops/backup.md')).toBe(
        true,
      );
      const noVectors = graph.truncation.find((cut) => cut.reason === 'no_vectors');
      expect(noVectors?.remedy).toMatch(/no vectors.*lexical-only.*--model/);
    } finally {
      await connected.close();
      await kb.close();
      serveKb.cleanup();
    }
  });
});

describe('get_document and the binary check', () => {
  it('refuses an indexed file that gained a NUL byte after its first 8 KiB', async () => {
    const serveKb = createServeKb();
    const kb = openTestKb(serveKb);
    try {
      await kb.index();
      const connected = await connectInMemory(kb);
      try {
        const file = serveKb.write('ops/backup.md', `${note('backup').repeat(60)}\0tail`);
        expect(fs.statSync(file).size).toBeGreaterThan(8192);
        const late = await connected.client.callTool({
          name: 'get_document',
          arguments: { path: 'ops/backup.md' },
        });
        expect(late.isError).toBe(true);
        expect(textOf(late)).toMatch(
          /refused ops\/backup\.md: it contains a NUL byte at offset \d+, so it looks binary/,
        );
      } finally {
        await connected.close();
      }
    } finally {
      await kb.close();
      serveKb.cleanup();
    }
  });
});
