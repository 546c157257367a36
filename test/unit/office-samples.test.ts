// The extractors on files an office suite wrote (test/fixtures/office, made once with LibreOffice).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runExtractJob } from '../../src/fs/extract/extract-run.js';
import { testExtractionLimits } from '../support/office-files.js';

const folder = path.resolve(import.meta.dirname, '../fixtures/office');
const limits = testExtractionLimits({ maxDecompressedBytes: 64 * 1024 * 1024 });

async function extract(format: 'pdf' | 'docx' | 'xlsx' | 'pptx') {
  const outcome = await runExtractJob({
    format,
    bytes: fs.readFileSync(path.join(folder, `sample.${format}`)),
    limits,
  });
  if (!outcome.ok) throw new Error(`${format} refused: ${outcome.detail}`);
  return outcome.extraction;
}

describe('files written by LibreOffice', () => {
  it('DOCX: heading styles, list items, table rows and Japanese text', async () => {
    const doc = await extract('docx');
    expect(doc.title).toBe('Release checklist');
    expect(doc.sections.map((s) => [s.heading, s.level])).toEqual([
      ['Release checklist', 1],
      ['Before the release', 2],
      ['Owners', 2],
      ['東京オフィス', 2],
    ]);
    expect(doc.sections[1]!.text).toBe('- freeze the main branch\n- run the full test suite twice');
    expect(doc.sections[2]!.text).toContain('Freeze | Release manager');
    expect(doc.sections[3]!.text).toBe('東京オフィスでは翌朝に告知します。');
  });

  it('PDF: one page, its metadata title, symbol-font bullets as list marks', async () => {
    const doc = await extract('pdf');
    expect(doc.title).toBe('Release checklist');
    expect(doc.sections.map((s) => s.heading)).toEqual(['p. 1']);
    expect(doc.sections[0]!.text).toContain('written down after the pelicanfish incident.');
    expect(doc.sections[0]!.text).toContain('\n- freeze the main branch\n');
  });

  it('XLSX: the sheet under its name, rows tab-separated', async () => {
    const doc = await extract('xlsx');
    expect(doc.sections).toEqual([
      {
        heading: 'sample',
        level: 2,
        ancestors: [],
        text: 'Region\tQuarter\tRevenue\nTokyo\tQ1\t1200\nOsaka\tQ1\t800\nNagoya\tQ2\t650',
      },
    ]);
  });

  it('PPTX: slides in order under their titles, speaker notes after the slide text', async () => {
    const doc = await extract('pptx');
    expect(doc.title).toBe('Review deck');
    expect(doc.sections.map((s) => s.heading)).toEqual(['Quarterly review', 'Next steps']);
    expect(doc.sections[0]!.text).toBe(
      'Revenue up in Tokyo\nCosts flat\n\nNotes:\nThank the narwhalist team.',
    );
  });
});
