// An XLSX hiding a huge entry from its central directory (a local header the directory does not list): the zip
// guard hands the parser only what the directory lists, so exceljs's streaming reader, which walks local headers,
// never inflates the hidden entry nor writes it to a temp file, and the sound sheet is read.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractXlsx } from '../../src/fs/extract/extract-xlsx.js';
import { BoundedZip } from '../../src/fs/extract/zip-guard.js';
import { makeHiddenEntryXlsx } from '../support/hostile-files.js';
import { testExtractionLimits } from '../support/office-files.js';
import { watchPeaks } from '../support/process-peak.js';

const MIB = 1024 * 1024;

/** The entry names met walking the archive's local headers from its first byte, as a streaming reader does. */
function localHeaderNames(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const names: string[] = [];
  let at = 0;
  while (at + 30 <= bytes.length && view.getUint32(at, true) === 0x04034b50) {
    const nameLength = view.getUint16(at + 26, true);
    names.push(new TextDecoder().decode(bytes.subarray(at + 30, at + 30 + nameLength)));
    at += 30 + nameLength + view.getUint16(at + 28, true) + view.getUint32(at + 18, true);
  }
  return names;
}

let tmp: string;
let savedTmp: string | undefined;
beforeEach(() => {
  savedTmp = process.env.TMPDIR;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-hidden-entry-'));
  process.env.TMPDIR = tmp;
});
afterEach(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('an entry hidden from the central directory', () => {
  it('is in no archive handed to a parser', async () => {
    const file = await makeHiddenEntryXlsx(16 * MIB);
    expect(localHeaderNames(file)[0]).toBe('xl/worksheets/sheet9.xml');
    const zip = BoundedZip.open(file, { maxDecompressedBytes: 8 * MIB, maxEntries: 100 });
    expect(zip.names()).not.toContain('xl/worksheets/sheet9.xml');
    const listed = zip.listedOnly();
    expect(localHeaderNames(listed).sort()).toEqual(zip.names().sort());
  });

  it('is never inflated nor written to temp: the workbook is read from what the directory lists', async () => {
    const file = await makeHiddenEntryXlsx(256 * MIB);
    const watch = watchPeaks(process.pid, tmp, 10);
    const extraction = await extractXlsx(file, testExtractionLimits());
    const peaks = watch.stop();
    expect(extraction.sections.map((section) => section.text)).toEqual(['name\tvalue\nquokka\t1']);
    expect(peaks.folderBytes).toBeLessThan(MIB);
  }, 60_000);
});
