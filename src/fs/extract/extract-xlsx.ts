// XLSX → per sheet (heading = the sheet name), blocks of rows as tab-separated lines, each block opening with
// the sheet's header row (its first non-empty row) so every chunk says what its columns are. exceljs's streaming
// reader reads the rows; past the cell cap the rest of a sheet is left out.
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { countUtf8Bytes } from '../../core/utf8-bytes.js';
import type { ExtractedSection, Extraction } from '../../document/extracted-document.js';
import { type ExtractionLimits, TextBudget } from './extract-job.js';
import { ExtractRefusal } from './extract-refusal.js';
import { openOoxml, readCoreProperties } from './ooxml-common.js';

const require = createRequire(import.meta.url);

/** Characters kept of one cell. */
export const MAX_CELL_CHARS = 1000;

interface StreamRow {
  values: unknown[] | Record<string, unknown>;
}
interface StreamSheet extends AsyncIterable<StreamRow> {
  name?: string;
  id?: number;
}
interface ExcelJs {
  stream: {
    xlsx: {
      WorkbookReader: new (input: Readable, options: Record<string, string>) => AsyncIterable<StreamSheet>;
    };
  };
}

export async function extractXlsx(bytes: Uint8Array, limits: ExtractionLimits): Promise<Extraction> {
  const zip = openOoxml(bytes, limits, 'xl/workbook.xml');
  zip.verifyAll();
  const core = readCoreProperties(zip);
  const ExcelJS = require('exceljs') as ExcelJs;
  const listed = zip.listedOnly();
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(
    Readable.from([Buffer.from(listed.buffer, listed.byteOffset, listed.byteLength)]),
    { sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'cache', worksheets: 'emit', entries: 'emit' },
  );
  const budget = new TextBudget(limits.maxTextChars);
  const sections: ExtractedSection[] = [];
  let sheets = 0;
  let truncated = false;
  try {
    for await (const sheet of reader) {
      sheets++;
      if (sheets > limits.maxSheets || budget.exhausted) {
        truncated = true;
        for await (const _row of sheet) {
          // Drained unread: the reader needs each sheet consumed before it yields the next.
        }
        continue;
      }
      const name = sheet.name?.trim() || `sheet ${sheets}`;
      const read = await readSheet(sheet, name, limits, budget);
      truncated ||= read.truncated;
      sections.push(...read.sections);
    }
  } catch (error) {
    if (error instanceof ExtractRefusal) throw error;
    throw new ExtractRefusal('corrupt', `it is not a readable workbook (${(error as Error).message})`);
  }
  return {
    title: core.title,
    date: core.date,
    tags: core.tags,
    sections,
    verbatim: false,
    truncated: truncated || budget.truncated,
  };
}

async function readSheet(
  sheet: StreamSheet,
  name: string,
  limits: ExtractionLimits,
  budget: TextBudget,
): Promise<{ sections: ExtractedSection[]; truncated: boolean }> {
  const sections: ExtractedSection[] = [];
  let header: string | null = null;
  let block: string[] = [];
  let blockBytes = 0;
  let cells = 0;
  let truncated = false;
  const close = () => {
    if (block.length > 0) sections.push({ heading: name, level: 2, ancestors: [], text: block.join('\n') });
    block = [];
    blockBytes = 0;
  };
  for await (const row of sheet) {
    if (truncated) continue; // drain the rest of the sheet unread
    const values = rowValues(row);
    const filled = values.filter((value) => value !== '').length;
    if (filled === 0) continue;
    if (cells + filled > limits.maxCellsPerSheet || budget.exhausted) {
      truncated = true;
      continue;
    }
    cells += filled;
    const line = budget.take(values.join('\t').trimEnd());
    if (header === null) {
      header = line;
      continue;
    }
    const lineBytes = countUtf8Bytes(line) + 1;
    if (block.length > 0 && blockBytes + lineBytes > limits.chunkBytes) close();
    if (block.length === 0) {
      block.push(header);
      blockBytes = countUtf8Bytes(header) + 1;
    }
    block.push(line);
    blockBytes += lineBytes;
  }
  // A sheet with one row only: the header is its text.
  if (sections.length === 0 && block.length === 0 && header !== null) block.push(header);
  close();
  return { sections, truncated };
}

/** A row's cells as text, in column order (exceljs numbers columns from 1). */
function rowValues(row: StreamRow): string[] {
  const raw = Array.isArray(row.values) ? row.values.slice(1) : Object.values(row.values);
  return raw.map((value) => {
    const text = cellText(value)
      .replace(/[\t\r\n]+/g, ' ')
      .trim();
    return text.length > MAX_CELL_CHARS ? text.slice(0, MAX_CELL_CHARS) : text;
  });
}

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = Number.isNaN(value.getTime()) ? '' : value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace(/\.000Z$/, 'Z');
  }
  if (typeof value !== 'object') return String(value);
  const cell = value as Record<string, unknown>;
  if (Array.isArray(cell.richText)) {
    return cell.richText.map((part) => String((part as { text?: unknown }).text ?? '')).join('');
  }
  if ('result' in cell) return cellText(cell.result);
  if ('text' in cell) return cellText(cell.text);
  if ('error' in cell) return String(cell.error);
  return '';
}
