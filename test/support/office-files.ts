// Real PDF, DOCX, XLSX and PPTX files made by real writers (pdf-lib, docx, exceljs, pptxgenjs), plus the
// hostile ones: a zip bomb, a PDF that needs a password, an image-only PDF. Test-only.

import { createRequire } from 'node:module';
import { zipSync } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { ExtractionLimits } from '../../src/fs/extract/extract-job.js';

const require = createRequire(import.meta.url);

/** A PDF with one page per entry of `pages` (lines of each page), a title and a creation date. */
export async function makePdf(
  pages: string[][],
  meta: { title?: string; created?: Date } = {},
): Promise<Buffer> {
  const doc = await PDFDocument.create();
  if (meta.title) doc.setTitle(meta.title);
  if (meta.created) doc.setCreationDate(meta.created);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([595, 842]);
    for (const [i, line] of lines.entries()) page.drawText(line, { x: 50, y: 780 - i * 16, size: 11, font });
  }
  return Buffer.from(await doc.save());
}

/** A PDF whose pages hold only an image: no text layer (what a scanner makes). */
export async function makeImageOnlyPdf(pageCount: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  // A 1×1 grey PNG.
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==',
    'base64',
  );
  const image = await doc.embedPng(png);
  for (let i = 0; i < pageCount; i++) {
    doc.addPage([595, 842]).drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
  }
  return Buffer.from(await doc.save());
}

/**
 * A PDF under the standard security handler whose user password is not empty: a reader needs a password to
 * open it. The O and U entries are arbitrary, so no password opens it, which is all a refusal test needs.
 */
export function makePasswordPdf(): Buffer {
  const objects = [
    '1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj',
    '2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj',
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj',
    `4 0 obj<</Filter/Standard/V 1/R 2/O<${'41'.repeat(32)}>/U<${'42'.repeat(32)}>/P -4>>endobj`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const object of objects) {
    offsets.push(body.length);
    body += `${object}\n`;
  }
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer<</Size ${objects.length + 1}/Root 1 0 R/Encrypt 4 0 R/ID[<${'00'.repeat(16)}><${'00'.repeat(16)}>]>>\n`;
  body += `startxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

export interface DocxSpec {
  title?: string;
  keywords?: string;
  blocks: (
    | { heading: string; level: 1 | 2 | 3 }
    | { paragraph: string }
    | { bullets: string[] }
    | { table: string[][] }
  )[];
}

export async function makeDocx(spec: DocxSpec): Promise<Buffer> {
  const docx = require('docx') as typeof import('docx');
  const { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } = docx;
  const levels = { 1: HeadingLevel.HEADING_1, 2: HeadingLevel.HEADING_2, 3: HeadingLevel.HEADING_3 };
  const children: (InstanceType<typeof Paragraph> | InstanceType<typeof Table>)[] = [];
  for (const block of spec.blocks) {
    if ('heading' in block)
      children.push(new Paragraph({ text: block.heading, heading: levels[block.level] }));
    else if ('paragraph' in block) children.push(new Paragraph({ text: block.paragraph }));
    else if ('bullets' in block) {
      for (const item of block.bullets) {
        children.push(new Paragraph({ text: item, numbering: { reference: 'bullets', level: 0 } }));
      }
    } else {
      children.push(
        new Table({
          rows: block.table.map(
            (row) =>
              new TableRow({
                children: row.map((cell) => new TableCell({ children: [new Paragraph(cell)] })),
              }),
          ),
        }),
      );
    }
  }
  const document = new Document({
    title: spec.title,
    keywords: spec.keywords,
    numbering: {
      config: [{ reference: 'bullets', levels: [{ level: 0, format: 'bullet', text: '•' }] }],
    },
    sections: [{ children }],
  });
  return Buffer.from(await Packer.toBuffer(document));
}

export async function makeXlsx(sheets: { name: string; rows: unknown[][] }[]): Promise<Buffer> {
  const ExcelJS = require('exceljs') as typeof import('exceljs');
  const workbook = new ExcelJS.Workbook();
  for (const sheet of sheets) {
    const worksheet = workbook.addWorksheet(sheet.name);
    for (const row of sheet.rows) worksheet.addRow(row);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export async function makePptx(
  slides: { title?: string; body: string[]; notes?: string; table?: string[][] }[],
  meta: { title?: string } = {},
): Promise<Buffer> {
  const PptxGenJS = require('pptxgenjs') as new () => {
    title: string;
    defineSlideMaster(master: Record<string, unknown>): void;
    addSlide(options?: { masterName: string }): {
      addText(text: string, options: Record<string, unknown>): void;
      addNotes(notes: string): void;
      addTable(rows: { text: string }[][], options: Record<string, unknown>): void;
    };
    write(options: { outputType: 'nodebuffer' }): Promise<unknown>;
  };
  const deck = new PptxGenJS();
  if (meta.title) deck.title = meta.title;
  // A title placeholder, as an office suite's layouts have: the slide's title goes into it.
  deck.defineSlideMaster({
    title: 'WITH_TITLE',
    objects: [
      { placeholder: { options: { name: 'title', type: 'title', x: 0.5, y: 0.3, w: 9, h: 1 }, text: '' } },
    ],
  });
  for (const spec of slides) {
    const slide = deck.addSlide({ masterName: 'WITH_TITLE' });
    if (spec.title) slide.addText(spec.title, { placeholder: 'title' });
    slide.addText(spec.body.join('\n'), { x: 0.5, y: 1.5, w: 9, h: 4 });
    if (spec.table) {
      slide.addTable(
        spec.table.map((row) => row.map((text) => ({ text }))),
        { x: 0.5, y: 4, w: 9 },
      );
    }
    if (spec.notes) slide.addNotes(spec.notes);
  }
  return (await deck.write({ outputType: 'nodebuffer' })) as Buffer;
}

/**
 * A DOCX-shaped zip bomb: a real document part plus an entry of `inflatedBytes` zeros, deflated to a few KiB.
 * With `lie`, the directory declares the big entry as 100 bytes, so only inflating it can tell.
 */
export function makeZipBomb(inflatedBytes: number, options: { lie?: boolean } = {}): Buffer {
  const documentXml =
    '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>bomb</w:t></w:r></w:p></w:body></w:document>';
  const zip = Buffer.from(
    zipSync({
      '[Content_Types].xml': new TextEncoder().encode('<Types/>'),
      'word/document.xml': new TextEncoder().encode(documentXml),
      'word/padding.bin': [new Uint8Array(inflatedBytes), { level: 9 }],
    }),
  );
  if (options.lie) lieAboutSize(zip, 'word/padding.bin', 100);
  return zip;
}

/** Overwrite an entry's uncompressed size in both its local header and the central directory. */
function lieAboutSize(zip: Buffer, name: string, size: number): void {
  for (let at = 0; at < zip.length - 4; at++) {
    const signature = zip.readUInt32LE(at);
    if (signature === 0x04034b50) {
      const nameLength = zip.readUInt16LE(at + 26);
      if (zip.toString('utf8', at + 30, at + 30 + nameLength) === name) zip.writeUInt32LE(size, at + 22);
    } else if (signature === 0x02014b50) {
      const nameLength = zip.readUInt16LE(at + 28);
      if (zip.toString('utf8', at + 46, at + 46 + nameLength) === name) zip.writeUInt32LE(size, at + 24);
    }
  }
}

/** Extraction limits for extractor tests: generous, but small enough that the hostile cases hit them. */
export function testExtractionLimits(overrides: Partial<ExtractionLimits> = {}): ExtractionLimits {
  return {
    timeoutMs: 30_000,
    maxMemoryBytes: 768 * 1024 * 1024,
    maxDecompressedBytes: 8 * 1024 * 1024,
    maxZipEntries: 10_000,
    maxPages: 100,
    maxSheets: 10,
    maxCellsPerSheet: 10_000,
    maxSlides: 100,
    maxTextChars: 1_000_000,
    chunkBytes: 4000,
    maxHeadingLevel: 3,
    ...overrides,
  };
}
