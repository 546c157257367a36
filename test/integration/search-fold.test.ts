// `fold` on a real index: a long section split into several chunks takes one place in the results, its first
// hit counting the others, and the list is refilled; the same through the CLI's JSON and the MCP tool.
import { afterEach, describe, expect, it } from 'vitest';
import { searchResponseToJson } from '../../src/app/index.js';
import type { KnowledgeBase } from '../../src/app/knowledge-base.js';
import { searchKnowledgeBases } from '../../src/app/search-knowledge-bases.js';
import {
  type ConnectedClient,
  connectInMemory,
  createServeKb,
  openTestKb,
  type ServeKb,
  textOf,
} from '../support/mcp-fixture.js';
import { offlineEnv, runGroove } from '../support/run-cli.js';

/** A paragraph of `sentences` sentences of about 100 bytes that names the query word `times` times. */
function paragraph(topic: string, times: number, sentences: number): string {
  const filler = `The ${topic} steps are described here in plain words so the paragraph has some weight of its own.`;
  return [...Array.from({ length: times }, () => 'widgetfold'), ...Array(sentences).fill(filler)].join(' ');
}

// "Setup" is six paragraphs of about 3000 bytes, over max_chunk_bytes (4000) together, so it is split at
// paragraphs into six chunks that all match the query more often than the rest.
const GUIDE = [
  '# Widget guide',
  '',
  '## Setup',
  '',
  ...Array.from({ length: 6 }, (_, i) => [paragraph(`setup part ${i}`, 12, 30), '']).flat(),
  '## Usage',
  '',
  paragraph('usage', 1, 8),
  '',
].join('\n');
const FILES = {
  'guide.md': GUIDE,
  'faq.md': `# Widget FAQ\n\n${paragraph('faq', 1, 8)}\n`,
};

let serveKb: ServeKb;
let kb: KnowledgeBase;
let connected: ConnectedClient | null = null;
afterEach(async () => {
  await connected?.close();
  connected = null;
  await kb.close();
  serveKb.cleanup();
});

type Hit = { path: string; heading: string | null; folded?: number };
const placesOf = (results: unknown) => (results as Hit[]).map((h) => [h.path, h.heading, h.folded ?? 0]);

describe('fold', () => {
  it('keeps one hit per section (or document), counts what it folded and refills the list', async () => {
    serveKb = createServeKb({ model: 'none', files: FILES });
    kb = openTestKb(serveKb, null);
    await kb.index();

    const unfolded = await kb.search({ query: 'widgetfold', limit: 3, fold: 'none' });
    expect(unfolded.results.map((h) => h.heading)).toEqual(['Setup', 'Setup', 'Setup']);

    const bySection = searchResponseToJson(
      await kb.search({ query: 'widgetfold', limit: 3, fold: 'section' }),
    );
    const places = placesOf(bySection.results);
    expect(places.map(([path, heading]) => [path, heading])).toEqual([
      ['guide.md', 'Setup'],
      ['faq.md', 'Widget FAQ'],
      ['guide.md', 'Usage'],
    ]);
    // Every other chunk of Setup ranks above the FAQ and Usage: all five were folded into the first.
    expect(places[0]![2]).toBe(5);
    expect(places.slice(1).map((p) => p[2])).toEqual([0, 0]);

    const byDocument = await kb.search({ query: 'widgetfold', limit: 3, fold: 'document' });
    expect(byDocument.results.map((h) => [h.path, h.folded ?? 0])).toEqual([
      ['guide.md', 6],
      ['faq.md', 0],
    ]);

    // The built-in value ([search] fold) is section.
    const plain = await kb.search({ query: 'widgetfold', limit: 3 });
    expect(searchResponseToJson(plain).results).toEqual(bySection.results);
  });

  it('folds a search across knowledge bases the same way', async () => {
    serveKb = createServeKb({ model: 'none', files: { 'guide.md': GUIDE } });
    kb = openTestKb(serveKb, null);
    await kb.index();
    const other = createServeKb({ model: 'none', files: { 'faq.md': FILES['faq.md'] } });
    const otherKb = openTestKb(other, null);
    try {
      await otherKb.index();
      const targets = [
        { kb, name: 'guides' },
        { kb: otherKb, name: 'faq' },
      ];
      const response = await searchKnowledgeBases(targets, { query: 'widgetfold', limit: 3 });
      expect(response.results.map((h) => [h.kb, h.path, h.heading, h.folded ?? 0])).toEqual([
        ['guides', 'guide.md', 'Setup', 5],
        ['faq', 'faq.md', 'Widget FAQ', 0],
        ['guides', 'guide.md', 'Usage', 0],
      ]);
      const byDocument = await searchKnowledgeBases(targets, {
        query: 'widgetfold',
        limit: 3,
        fold: 'document',
      });
      expect(byDocument.results.map((h) => [h.kb, h.path, h.folded ?? 0])).toEqual([
        ['guides', 'guide.md', 6],
        ['faq', 'faq.md', 0],
      ]);
    } finally {
      await otherKb.close();
      other.cleanup();
    }
  });

  it('reaches the CLI JSON and the MCP search tool, whose schema lists the modes', async () => {
    serveKb = createServeKb({ model: 'none', files: FILES });
    kb = openTestKb(serveKb, null);
    await kb.index();

    const env = offlineEnv(serveKb.root);
    const base = ['--kb-path', serveKb.kbPath];
    expect((await runGroove(['index', ...base, '--model', 'none'], { cwd: serveKb.root, env })).code).toBe(0);
    const cli = await runGroove(
      ['search', 'widgetfold', ...base, '--limit', '3', '--fold', 'document', '--format', 'json'],
      { cwd: serveKb.root, env },
    );
    expect(cli.code).toBe(0);
    expect(placesOf(JSON.parse(cli.stdout).results)).toEqual([
      ['guide.md', 'Setup', 6],
      ['faq.md', 'Widget FAQ', 0],
    ]);
    const refused = await runGroove(['search', 'widgetfold', ...base, '--fold', 'chapter'], {
      cwd: serveKb.root,
      env,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/fold must be one of none, section, document/);

    connected = await connectInMemory(kb);
    const { tools } = await connected.client.listTools();
    const properties = tools.find((t) => t.name === 'search')!.inputSchema.properties as Record<
      string,
      { enum?: string[]; description?: string }
    >;
    expect(properties.fold?.enum).toEqual(['none', 'section', 'document']);
    expect(properties.fold?.description).toMatch(/default section, from \[search\] fold/);
    const viaMcp = await connected.client.callTool({
      name: 'search',
      arguments: { query: 'widgetfold', limit: 3, fold: 'section' },
    });
    expect(viaMcp.isError).toBeFalsy();
    expect(placesOf((viaMcp.structuredContent as { results: unknown }).results)).toEqual([
      ['guide.md', 'Setup', 5],
      ['faq.md', 'Widget FAQ', 0],
      ['guide.md', 'Usage', 0],
    ]);
    const bad = await connected.client.callTool({
      name: 'search',
      arguments: { query: 'widgetfold', fold: 'chapter' },
    });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/fold must be one of none, section, document/);
  });
});
