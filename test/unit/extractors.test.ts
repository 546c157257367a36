// Each extractor on files made by real writers, and on hostile files: what text and headings come out, and
// which refusal each bad file gets. Runs the extractors in this thread (the thread pool has its own tests).
import { describe, expect, it } from 'vitest';
import { parseExtraction, renderExtractedText } from '../../src/document/extracted-document.js';
import { dehyphenate, garbledShare } from '../../src/fs/extract/extract-pdf.js';
import { runExtractJob } from '../../src/fs/extract/extract-run.js';
import {
  makeDocx,
  makeImageOnlyPdf,
  makePasswordPdf,
  makePdf,
  makePptx,
  makeXlsx,
  makeZipBomb,
  testExtractionLimits,
} from '../support/office-files.js';

const limits = testExtractionLimits();

async function extract(format: 'pdf' | 'docx' | 'xlsx' | 'pptx', bytes: Uint8Array, over = {}) {
  return runExtractJob({ format, bytes, limits: { ...limits, ...over } });
}

async function extracted(format: 'pdf' | 'docx' | 'xlsx' | 'pptx', bytes: Uint8Array, over = {}) {
  const outcome = await extract(format, bytes, over);
  if (!outcome.ok) throw new Error(`refused: ${outcome.reason}: ${outcome.detail}`);
  return outcome.extraction;
}

const longLine = 'The quarterly revenue report covers every office and its sales figures.';

describe('PDF', () => {
  it('gives one section per page headed p. N, the metadata title and date, joined hyphenations', async () => {
    const pdf = await makePdf(
      [
        [longLine, 'Growth came from interna-', 'tional customers in Osaka.'],
        [longLine, 'The second page talks about budgets.'],
      ],
      { title: 'Revenue 2024', created: new Date('2024-03-01T00:00:00Z') },
    );
    const doc = await extracted('pdf', pdf);
    expect(doc.title).toBe('Revenue 2024');
    expect(doc.date).toBe('2024-03-01');
    expect(doc.sections.map((s) => s.heading)).toEqual(['p. 1', 'p. 2']);
    expect(doc.sections[0]!.text).toContain('international customers in Osaka.');
    expect(renderExtractedText(doc)).toMatch(/^## p\. 1\n\n/);
  });

  it('leaves out pages past max_pages and says so', async () => {
    const pdf = await makePdf([[longLine], [longLine], [longLine]]);
    const doc = await extracted('pdf', pdf, { maxPages: 2 });
    expect(doc.sections.map((s) => s.heading)).toEqual(['p. 1', 'p. 2']);
    expect(doc.truncated).toBe(true);
  });

  it('refuses a PDF that needs a password', async () => {
    expect(await extract('pdf', makePasswordPdf())).toMatchObject({ ok: false, reason: 'encrypted' });
  });

  it('refuses an image-only (scanned) PDF: no OCR', async () => {
    const outcome = await extract('pdf', await makeImageOnlyPdf(2));
    expect(outcome).toMatchObject({ ok: false, reason: 'no-text' });
    expect(outcome.ok === false && outcome.detail).toMatch(/no extractable text on its 2 page/);
  });

  it('indexes a short PDF with a text layer: one short line per page is text, not a scan', async () => {
    const doc = await extracted('pdf', await makePdf([['Hello from page one.'], ['Bye from page two.']]));
    expect(doc.sections.map((s) => [s.heading, s.text])).toEqual([
      ['p. 1', 'Hello from page one.'],
      ['p. 2', 'Bye from page two.'],
    ]);
  });

  it('refuses a truncated PDF as corrupt', async () => {
    const pdf = await makePdf([[longLine]]);
    expect(await extract('pdf', pdf.subarray(0, 200))).toMatchObject({ ok: false, reason: 'corrupt' });
  });

  it('tells garbled text from real text, and joins only letter-hyphen-lowercase breaks', () => {
    expect(garbledShare('plain words, ünïcode and 日本語')).toBe(0);
    expect(garbledShare('ab\u0081\u0082cd\ufffd')).toBeGreaterThan(0.3);
    expect(dehyphenate('inter-\nnational')).toBe('international');
    expect(dehyphenate('Jean-\nPierre and 2024-\n05')).toBe('Jean-\nPierre and 2024-\n05');
  });
});

describe('DOCX', () => {
  it('turns heading styles into sections with their parents, keeps lists and tables as rows', async () => {
    const docx = await makeDocx({
      title: 'Team handbook',
      keywords: 'onboarding, hr',
      blocks: [
        { paragraph: 'Intro before any heading.' },
        { heading: 'Onboarding', level: 1 },
        { paragraph: 'Welcome to the team.' },
        { heading: 'Laptop setup', level: 2 },
        { bullets: ['install the VPN client', 'enrol the disk encryption'] },
        {
          table: [
            ['Name', 'Role'],
            ['Ann', 'Developer'],
          ],
        },
      ],
    });
    const doc = await extracted('docx', docx);
    expect(doc.title).toBe('Team handbook');
    expect(doc.tags).toEqual(['onboarding', 'hr']);
    expect(doc.sections.map((s) => [s.heading, s.level, s.ancestors])).toEqual([
      [null, null, []],
      ['Onboarding', 1, []],
      ['Laptop setup', 2, ['Onboarding']],
    ]);
    expect(doc.sections[2]!.text).toBe(
      '- install the VPN client\n- enrol the disk encryption\nName | Role\nAnn | Developer',
    );
  });

  it('keeps headings deeper than max_heading_level as body lines', async () => {
    const docx = await makeDocx({
      blocks: [{ heading: 'Guide', level: 1 }, { heading: 'Detail', level: 3 }, { paragraph: 'Body text.' }],
    });
    const doc = await extracted('docx', docx, { maxHeadingLevel: 2 });
    expect(doc.sections).toEqual([{ heading: 'Guide', level: 1, ancestors: [], text: 'Detail\nBody text.' }]);
  });

  it('refuses a zip bomb by its declared size before inflating anything', async () => {
    const outcome = await extract('docx', makeZipBomb(64 * 1024 * 1024));
    expect(outcome).toMatchObject({ ok: false, reason: 'too-large-inflated' });
    expect(outcome.ok === false && outcome.detail).toMatch(/declare/);
  });

  it('refuses a zip bomb that lies about its size once inflating passes the cap', async () => {
    const outcome = await extract('docx', makeZipBomb(64 * 1024 * 1024, { lie: true }));
    expect(outcome).toMatchObject({ ok: false, reason: 'too-large-inflated' });
    expect(outcome.ok === false && outcome.detail).toMatch(/inflates to more than/);
  });

  it('refuses a truncated file and a password-protected (OLE) one', async () => {
    const docx = await makeDocx({ blocks: [{ paragraph: 'x'.repeat(5000) }] });
    expect(await extract('docx', docx.subarray(0, docx.length / 2))).toMatchObject({
      ok: false,
      reason: 'corrupt',
    });
    const ole = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(512)]);
    expect(await extract('docx', ole)).toMatchObject({ ok: false, reason: 'encrypted' });
  });
});

describe('XLSX', () => {
  it('gives each sheet its rows under its name, the header row opening every block', async () => {
    const xlsx = await makeXlsx([
      {
        name: 'Budget',
        rows: [
          ['Item', 'Cost'],
          ['Laptop', 1200],
          ['Desk', 300],
        ],
      },
      {
        name: 'Staff',
        rows: [
          ['Name', 'Team', 'Joined', 'Total'],
          ['Ann', 'Search', new Date('2021-04-01T00:00:00Z'), { formula: '1+1', result: 2 }],
        ],
      },
    ]);
    const doc = await extracted('xlsx', xlsx);
    expect(doc.sections).toEqual([
      { heading: 'Budget', level: 2, ancestors: [], text: 'Item\tCost\nLaptop\t1200\nDesk\t300' },
      {
        heading: 'Staff',
        level: 2,
        ancestors: [],
        text: 'Name\tTeam\tJoined\tTotal\nAnn\tSearch\t2021-04-01\t2',
      },
    ]);
  });

  it('reads a 100k-row sheet only up to max_cells_per_sheet, in blocks that each repeat the header', async () => {
    const rows: unknown[][] = [['id', 'name']];
    for (let i = 0; i < 100_000; i++) rows.push([i, `person ${i}`]);
    const xlsx = await makeXlsx([
      { name: 'Big', rows },
      { name: 'After', rows: [['k'], ['v']] },
    ]);
    const doc = await extracted('xlsx', xlsx, {
      maxCellsPerSheet: 2000,
      chunkBytes: 1000,
      maxDecompressedBytes: 64 * 1024 * 1024,
    });
    expect(doc.truncated).toBe(true);
    const big = doc.sections.filter((s) => s.heading === 'Big');
    const lines = big.flatMap((s) => s.text.split('\n')).filter((line) => line !== 'id\tname');
    expect(lines.length).toBe(999); // 2000 cells: the header's 2 and 999 rows of 2
    expect(big.length).toBeGreaterThan(5);
    for (const section of big) expect(section.text.startsWith('id\tname\n')).toBe(true);
    expect(doc.sections.at(-1)).toMatchObject({ heading: 'After', text: 'k\nv' });
  }, 60_000);
});

describe('PPTX', () => {
  it('gives one section per slide, headed by its title or slide N, with its speaker notes', async () => {
    const pptx = await makePptx(
      [
        {
          title: 'Roadmap 2025',
          body: ['Ship the parsers', 'Measure recall'],
          notes: 'Mention the PDF work.',
        },
        {
          body: ['A slide without a title'],
          table: [
            ['Quarter', 'Goal'],
            ['Q3', 'ship'],
          ],
        },
      ],
      { title: 'Planning deck' },
    );
    const doc = await extracted('pptx', pptx);
    expect(doc.title).toBe('Planning deck');
    expect(doc.sections.map((s) => s.heading)).toEqual(['Roadmap 2025', 'slide 2']);
    expect(doc.sections[0]!.text).toContain('Ship the parsers');
    expect(doc.sections[0]!.text).toContain('Notes:\nMention the PDF work.');
    expect(doc.sections[1]!.text).toBe('A slide without a title\nQuarter | Goal\nQ3 | ship');
  });

  it('names a deck without a metadata title after its first slide title, not its file name', async () => {
    const pptx = await makePptx([
      { body: ['A cover without a title placeholder'] },
      { title: 'Quarterly   roadmap', body: ['Ship the parsers'] },
      { title: 'Risks', body: ['None'] },
    ]);
    const extraction = await extracted('pptx', pptx);
    expect(extraction.title).toBe('PptxGenJS Presentation'); // the writer's placeholder
    const doc = parseExtraction({
      path: 'talks/deck-v3.pptx',
      extraction,
      fallbackTitle: 'deck v3',
      maxChunkBytes: 4000,
      excludeHeadings: [],
    });
    expect(doc.title).toBe('Quarterly roadmap');
    expect(doc.chunks.map((chunk) => chunk.breadcrumb)).toEqual([
      'Quarterly roadmap > slide 1',
      'Quarterly roadmap',
      'Quarterly roadmap > Risks',
    ]);
    const named = await extracted(
      'pptx',
      await makePptx([{ title: 'Intro', body: ['x'] }], { title: 'Deck' }),
    );
    expect(
      parseExtraction({
        path: 'd.pptx',
        extraction: named,
        fallbackTitle: 'd',
        maxChunkBytes: 4000,
        excludeHeadings: [],
      }).title,
    ).toBe('Deck');
  });

  it('leaves out slides past max_slides', async () => {
    const pptx = await makePptx([{ body: ['one'] }, { body: ['two'] }, { body: ['three'] }]);
    const doc = await extracted('pptx', pptx, { maxSlides: 2 });
    expect(doc.sections.map((s) => s.text)).toEqual(['one', 'two']);
    expect(doc.truncated).toBe(true);
  });
});
