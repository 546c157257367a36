// PDF, DOCX, XLSX, PPTX and source files indexed through the facade into a real SQLite index, with the
// extraction thread: search finds their text under their page/sheet/slide/definition headings, get_document
// serves the extracted text the chunk offsets point into, and incremental runs, renames and refused files
// behave as they do for Markdown.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IndexEvent } from '../../src/app/indexing/index-events.js';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { IndexRunner } from '../../src/app/serve/index-runner.js';
import { startLiveSync } from '../../src/app/serve/live-sync.js';
import type { ResolvedConfig } from '../../src/config/resolve-config.js';
import { waitFor } from '../support/mcp-fixture.js';
import {
  makeDocx,
  makePasswordPdf,
  makePdf,
  makePptx,
  makeXlsx,
  makeZipBomb,
} from '../support/office-files.js';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';

const ALL_PARSERS = 'model = "none"\n[parsers]\nenabled = ["md", "pdf", "docx", "xlsx", "pptx", "code"]\n';
const filler = 'This line only pads the page so that it has enough text to count as a text layer.';

let kb: TempKb;
beforeEach(async () => {
  kb = createTempKb({
    'notes/a.md': noteText('a'),
    'reports/q1.pdf': await makePdf(
      [
        [filler, 'Revenue grew in the Osaka office by twelve percent.'],
        [filler, 'Costs stayed flat across the zanzibarian branches.'],
      ],
      { title: 'Q1 report' },
    ),
    'handbook/team.docx': await makeDocx({
      blocks: [
        { heading: 'Onboarding', level: 1 },
        { paragraph: 'Every newcomer receives a quokkaphone on the first day.' },
        { heading: 'Equipment', level: 2 },
        {
          table: [
            ['Item', 'Owner'],
            ['Laptop', 'IT desk'],
          ],
        },
        { heading: 'Contact', level: 1 },
        { paragraph: 'Ask Pimpernel.' },
      ],
    }),
    'finance/budget.xlsx': await makeXlsx([
      {
        name: 'Travel',
        rows: [
          ['Trip', 'Cost'],
          ['Reykjavik offsite', 4200],
        ],
      },
    ]),
    'talks/roadmap.pptx': await makePptx([
      { title: 'Search roadmap', body: ['Hybrid retrieval everywhere'], notes: 'Mention the wombatron.' },
    ]),
    'src/parse.py': [
      'import os',
      '',
      '',
      '# Reads the settings file.',
      'class SettingsLoader:',
      '    def load_settings(self, path):',
      '        """Return the parsed settings."""',
      '        return open(path).read()',
      '',
    ].join('\n'),
  });
});
afterEach(() => kb.cleanup());

async function withFacade<T>(
  config: ResolvedConfig,
  work: (facade: ReturnType<typeof openKnowledgeBase>) => Promise<T>,
) {
  const facade = openKnowledgeBase(config);
  try {
    return await work(facade);
  } finally {
    await facade.close();
  }
}

async function index(config = kb.config({ toml: ALL_PARSERS })) {
  const events: IndexEvent[] = [];
  const summary = await withFacade(config, (facade) =>
    facade.index({ onEvent: (event) => events.push(event) }),
  );
  const skipped = events.flatMap((e) => (e.kind === 'skipped' ? [e.message] : []));
  return { summary, skipped };
}

describe('indexing the extracted formats', () => {
  it('indexes each format, finds its text under its headings, and serves the extracted text', async () => {
    const { summary, skipped } = await index();
    expect(skipped).toEqual([]);
    expect(summary).toMatchObject({ indexed: 6, skipped: 0, documents: 6 });
    const docs = kb.documents();
    expect(docs.get('reports/q1.pdf')!.title).toBe('Q1 report');
    expect(docs.get('reports/q1.pdf')!.chunks.map((c) => c.heading)).toEqual(['p. 1', 'p. 2']);
    expect(docs.get('handbook/team.docx')!.chunks.map((c) => c.heading)).toEqual([
      'Onboarding',
      'Equipment',
      'Contact',
    ]);
    expect(docs.get('finance/budget.xlsx')!.chunks.map((c) => c.heading)).toEqual(['Travel']);
    expect(docs.get('talks/roadmap.pptx')!.chunks.map((c) => c.heading)).toEqual(['Search roadmap']);
    expect(docs.get('src/parse.py')!.chunks.map((c) => c.heading)).toEqual([null, 'class SettingsLoader']);
    expect(docs.get('src/parse.py')!.tags).toEqual(['code', 'lang:python']);

    const config = kb.config({ toml: ALL_PARSERS });
    await withFacade(config, async (facade) => {
      for (const [query, path, heading] of [
        ['zanzibarian', 'reports/q1.pdf', 'p. 2'],
        ['quokkaphone', 'handbook/team.docx', 'Onboarding'],
        // A one-line section: kept visible (the quality filter's length penalties do not apply to extracted text).
        ['Pimpernel', 'handbook/team.docx', 'Contact'],
        ['Reykjavik', 'finance/budget.xlsx', 'Travel'],
        ['wombatron', 'talks/roadmap.pptx', 'Search roadmap'],
        ['load_settings', 'src/parse.py', 'class SettingsLoader'],
      ] as const) {
        const response = await facade.search({ query });
        expect(response.results[0], query).toMatchObject({ path, heading });
        const hit = response.results[0]!;
        expect(hit.matchSpans.length, query).toBeGreaterThan(0);
        const span = hit.matchSpans[0]!;
        const matched = hit.content.slice(span.start, span.end).toLowerCase();
        expect(matched.length, query).toBeGreaterThan(2);
        expect(query.toLowerCase(), query).toContain(matched);
      }
      const pdf = await facade.getDocument('reports/q1.pdf');
      expect(pdf).toMatchObject({
        ok: true,
        document: { extracted: true, truncated: false, title: 'Q1 report' },
      });
      const content = pdf.ok ? pdf.document.content : '';
      expect(content).toMatch(/^## p\. 1\n\n/);
      // Every chunk's byte range points at its own text in what get_document serves.
      const bytes = Buffer.from(content);
      for (const chunk of kb.documents().get('reports/q1.pdf')!.chunks) {
        expect(bytes.subarray(chunk.byteStart, chunk.byteEnd).toString()).toContain(chunk.content);
      }
      const code = await facade.getDocument('src/parse.py');
      expect(code).toMatchObject({ ok: true, document: { extracted: false } });
      const topics = await facade.listTopics();
      expect(JSON.stringify(topics)).toContain('Q1 report');
    });
  }, 60_000);

  it('finds unchanged files by hash, follows a rename, and keeps old rows of a file that turns unreadable', async () => {
    await index();
    const second = await index();
    expect(second.summary).toMatchObject({ indexed: 0, updated: 0, unchanged: 6 });

    kb.move('reports/q1.pdf', 'reports/q1-final.pdf');
    const renamed = await index();
    expect(renamed.summary).toMatchObject({ renamed: 1, deleted: 0, documents: 6 });

    const before = kb.documents().get('handbook/team.docx')!;
    const docx = await makeDocx({ blocks: [{ paragraph: 'x'.repeat(4000) }] });
    kb.write('handbook/team.docx', docx.subarray(0, docx.length / 2));
    const broken = await index();
    expect(broken.summary).toMatchObject({ skipped: 1, deleted: 0, documents: 6 });
    expect(broken.skipped[0]).toMatch(/^skipped handbook\/team\.docx: it is not a readable ZIP container/);
    expect(kb.documents().get('handbook/team.docx')!.chunks).toEqual(before.chunks);
    expect(kb.ftsMatches('quokkaphone').trigram).toBe(1);
  }, 60_000);

  it('indexes a two-page PDF with one short line of text per page: a text layer is never taken for a scan', async () => {
    kb.write('reports/memo.pdf', await makePdf([['Ocelot sighting at dawn.'], ['Filed by the ranger.']]));
    const { skipped } = await index();
    expect(skipped).toEqual([]);
    expect(
      kb
        .documents()
        .get('reports/memo.pdf')!
        .chunks.map((c) => c.heading),
    ).toEqual(['p. 1', 'p. 2']);
    await withFacade(kb.config({ toml: ALL_PARSERS }), async (facade) => {
      const response = await facade.search({ query: 'ocelot' });
      expect(response.results[0]).toMatchObject({ path: 'reports/memo.pdf', heading: 'p. 1' });
    });
  });

  it('skips hostile files with their reasons and indexes the rest', async () => {
    kb.write('reports/locked.pdf', makePasswordPdf());
    kb.write('handbook/bomb.docx', makeZipBomb(300 * 1024 * 1024));
    const config = kb.config({ toml: `${ALL_PARSERS}max_decompressed_size = "50MiB"\n` });
    const { summary, skipped } = await index(config);
    expect(summary).toMatchObject({ indexed: 6, skipped: 2 });
    expect(skipped.sort()).toEqual([
      expect.stringMatching(/^skipped handbook\/bomb\.docx: its entries declare \d+ bytes uncompressed/),
      expect.stringMatching(/^skipped reports\/locked\.pdf: it is password-protected \(groove does not read/),
    ]);
  }, 60_000);

  it('chunks source in a language without a grammar as plain text', async () => {
    kb.write('src/App.kt', 'fun main() {\n    println("marsupialish")\n}\n');
    const toml = `${ALL_PARSERS}[parsers.code]\nlanguages = ["python", "kotlin"]\n`;
    const { summary } = await index(kb.config({ toml }));
    expect(summary).toMatchObject({ indexed: 7, skipped: 0 });
    const kotlin = kb.documents().get('src/App.kt')!;
    expect(kotlin.chunks.map((c) => c.heading)).toEqual([null]);
    expect(kotlin.chunks[0]!.content).toContain('marsupialish');
  }, 60_000);

  it('doctor names indexed documents no enabled parser claims any more', async () => {
    await index();
    const mdOnly = kb.config({ toml: 'model = "none"\n' });
    const report = await withFacade(mdOnly, async (facade) => facade.doctor());
    const finding = report.findings.find((f) => f.check === 'parser-not-enabled');
    expect(finding).toMatchObject({ severity: 'warning', count: 5 });
    expect(finding!.samples).toEqual([
      'finance/budget.xlsx',
      'handbook/team.docx',
      'reports/q1.pdf',
      'src/parse.py',
      'talks/roadmap.pptx',
    ]);
    const all = await withFacade(kb.config({ toml: ALL_PARSERS }), async (facade) => facade.doctor());
    expect(all.findings.map((f) => f.check)).not.toContain('parser-not-enabled');
  }, 60_000);

  it('live sync (serve) picks up a PDF dropped into the knowledge base, and a broken one keeps its rows', async () => {
    const facade = openKnowledgeBase(kb.config({ toml: ALL_PARSERS }));
    const logs: string[] = [];
    const handle = startLiveSync({
      kb: facade,
      runner: new IndexRunner(facade),
      debounceMs: 50,
      log: (l) => logs.push(l),
    });
    try {
      await handle.ready;
      await waitFor(() => logs.some((l) => l.includes('6 added')), 20_000, 'the startup sync');
      kb.write('reports/new.pdf', await makePdf([[filler, 'The okapiology budget was approved.']]));
      const found = async () =>
        (await facade.search({ query: 'okapiology' })).results.some((hit) => hit.path === 'reports/new.pdf');
      await waitFor(found, 20_000, 'the new PDF');
      kb.write('reports/new.pdf', Buffer.from('%PDF-1.7 truncated'));
      await waitFor(() => logs.some((l) => l.includes('skipped reports/new.pdf')), 20_000, 'the refusal');
      expect(await found()).toBe(true);
    } finally {
      await handle.close();
      await facade.close();
    }
  }, 60_000);

  it('leaves the extracted formats alone when [parsers] enabled does not list them', async () => {
    const { summary } = await index(kb.config({ toml: 'model = "none"\n' }));
    expect(summary).toMatchObject({ indexed: 1, documents: 1 });
  });
});
