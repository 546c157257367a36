// PDF → one section per page with text (`p. N`), through pdf.js (pdfjs-dist's legacy build, the one for Node).
// No OCR: a file with no extractable text at all is refused as image-only (a text layer, however short, is
// indexed), as is one that needs a password or whose text layer is garbled.
import type { ExtractedSection, Extraction } from '../../document/extracted-document.js';
import { type ExtractionLimits, TextBudget } from './extract-job.js';
import { ExtractRefusal } from './extract-refusal.js';

/** C1 controls, U+FFFD and stray low controls at or above this share of the text mean a garbled text layer. */
const MOJIBAKE_SHARE = 0.01;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjsModule: Promise<PdfJs> | null = null;

function loadPdfJs(): Promise<PdfJs> {
  pdfjsModule ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjsModule;
}

/** Import pdf.js now (it loads its optional canvas addon), so a job's deadline never covers it. */
export async function preloadPdfJs(): Promise<void> {
  await loadPdfJs();
}

export async function extractPdf(bytes: Uint8Array, limits: ExtractionLimits): Promise<Extraction> {
  const pdfjs = await loadPdfJs();
  // pdf.js takes ownership of the buffer it is given, so it gets a copy.
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
  });
  let pdf: Awaited<typeof task.promise>;
  try {
    pdf = await task.promise;
  } catch (error) {
    throw refusalOf(error);
  }
  try {
    const info = await readInfo(pdf);
    const budget = new TextBudget(limits.maxTextChars);
    const pageCount = Math.min(pdf.numPages, limits.maxPages);
    const sections: ExtractedSection[] = [];
    let chars = 0;
    for (let number = 1; number <= pageCount && !budget.exhausted; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      page.cleanup();
      const text = budget.take(markBullets(dehyphenate(joinTextItems(content.items))));
      chars += text.replace(/\s/g, '').length;
      if (text.trim() !== '') sections.push({ heading: `p. ${number}`, level: 2, ancestors: [], text });
    }
    if (chars === 0) {
      throw new ExtractRefusal(
        'no-text',
        `it has no extractable text on its ${pageCount} page(s): it looks scanned or image-only`,
      );
    }
    const garbled = garbledShare(sections.map((s) => s.text).join(''));
    if (garbled >= MOJIBAKE_SHARE) {
      throw new ExtractRefusal(
        'mojibake',
        `${(garbled * 100).toFixed(1)}% of its extracted characters are control or replacement characters`,
      );
    }
    return {
      title: info.title,
      date: info.date,
      tags: [],
      sections,
      verbatim: false,
      truncated: budget.truncated || pdf.numPages > pageCount,
    };
  } finally {
    await pdf.destroy();
  }
}

function refusalOf(error: unknown): ExtractRefusal {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'PasswordException') return new ExtractRefusal('encrypted', 'it is password-protected');
  const message = error instanceof Error ? error.message : String(error);
  return new ExtractRefusal('corrupt', `it is not a readable PDF (${message})`);
}

async function readInfo(pdf: {
  getMetadata(): Promise<{ info: object }>;
}): Promise<{ title: string | null; date: string | null }> {
  try {
    const { info } = (await pdf.getMetadata()) as { info: Record<string, unknown> };
    const title = typeof info.Title === 'string' && info.Title.trim() !== '' ? info.Title.trim() : null;
    return { title, date: pdfDate(info.CreationDate) ?? pdfDate(info.ModDate) };
  } catch {
    return { title: null, date: null };
  }
}

/** `D:20240301093000+01'00'` → `2024-03-01`; anything else → null. */
export function pdfDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?/.exec(value);
  if (!match) return null;
  return `${match[1]}-${match[2] ?? '01'}-${match[3] ?? '01'}`;
}

/** pdf.js text items in its reading order, a line break where it marks one. */
function joinTextItems(items: readonly unknown[]): string {
  let out = '';
  for (const item of items) {
    const { str, hasEOL } = item as { str?: string; hasEOL?: boolean };
    if (typeof str === 'string') out += str;
    if (hasEOL) out += '\n';
  }
  return out;
}

/** Conservative: `inter-\nnational` → `international` only between letters, the second lower case. */
export function dehyphenate(text: string): string {
  return text.replace(/(\p{L})-\n(\p{Ll})/gu, '$1$2');
}

/**
 * A private-use character opening a line is a list bullet drawn from a symbol font (Symbol, Wingdings: office
 * suites write U+F0B7 and kin), which means nothing as text: it becomes `- `.
 */
export function markBullets(text: string): string {
  return text.replace(/^[ \t]*[\uE000-\uF8FF][ \t]*/gm, '- ');
}

/** Share of characters that no real text layer yields: C0 controls but tab/newline, C1 controls, U+FFFD. */
export function garbledShare(text: string): number {
  if (text.length === 0) return 0;
  const bad = text.match(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u0080-\u009f\ufffd]/g)?.length ?? 0;
  return bad / text.length;
}
