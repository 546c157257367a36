// A generated corpus per extracted format for bench:index: N files each of PDF, DOCX, XLSX, PPTX and source
// code, made by the same real writers the tests use (pdf-lib, docx, exceljs, pptxgenjs).
import fs from 'node:fs';
import path from 'node:path';
import { makeDocx, makePdf, makePptx, makeXlsx } from '../test/support/office-files.js';

export const CORPUS_FORMATS = ['pdf', 'docx', 'xlsx', 'pptx', 'code'] as const;
export type CorpusFormat = (typeof CORPUS_FORMATS)[number];

const WORDS =
  'index search chunk vector note heading query folder file token model lexical hybrid rank'.split(' ');
const prose = (seed: number, n: number) =>
  Array.from({ length: n }, (_, j) => WORDS[(seed * 31 + j * 7) % WORDS.length]).join(' ');

/** Write `count` files of one format under `dir` (a few pages, sections, rows or slides each); returns `dir`. */
export async function generateFormatCorpus(
  format: CorpusFormat,
  count: number,
  dir: string,
): Promise<string> {
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++) {
    const file = path.join(dir, `doc-${i}.${format === 'code' ? 'ts' : format}`);
    fs.writeFileSync(file, await makeOne(format, i));
  }
  return dir;
}

async function makeOne(format: CorpusFormat, i: number): Promise<Buffer | string> {
  switch (format) {
    case 'pdf':
      return makePdf(
        [0, 1, 2].map((p) => [prose(i + p, 12), prose(i + p + 1, 12), `unique${i} page ${p}`]),
        {
          title: `Report ${i}`,
        },
      );
    case 'docx':
      return makeDocx({
        title: `Handbook ${i}`,
        blocks: [0, 1, 2].flatMap((s) => [
          { heading: `Section ${s} of ${i}`, level: 1 as const },
          { paragraph: `${prose(i + s, 40)} unique${i}.` },
          { bullets: [prose(i, 6), prose(i + 1, 6)] },
        ]),
      });
    case 'xlsx':
      return makeXlsx([
        {
          name: `Sheet ${i}`,
          rows: [
            ['id', 'name', 'note'],
            ...Array.from({ length: 50 }, (_, r) => [r, `row ${r}`, prose(i + r, 6)]),
          ],
        },
      ]);
    case 'pptx':
      return makePptx(
        [0, 1, 2].map((s) => ({
          title: `Slide ${s} of ${i}`,
          body: [prose(i + s, 15)],
          notes: `unique${i}`,
        })),
      );
    case 'code':
      return [0, 1, 2, 3]
        .map(
          (f) =>
            `/** ${prose(i + f, 8)} */\nexport function fn${i}_${f}(x: number): number {\n  return x * ${f};\n}\n`,
        )
        .join('\n');
  }
}
