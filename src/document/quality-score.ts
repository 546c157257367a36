// The chunk quality score (0–1) that lets search hide placeholder and fragment chunks.
// Short text, boilerplate placeholders and one-liners lose points; a chunk under the threshold is hidden.

/** Placeholder texts, compared case-insensitively after trimming trailing `. 。 、 ,` and spaces. */
const BOILERPLATE = new Set(
  [
    'TBD',
    'TODO',
    'WIP',
    'N/A',
    '未定',
    '準備中',
    '(準備中)',
    '詳細は後述',
    '詳細は後述する',
    'ここに書く',
    '後で書く',
    'Coming soon',
    '後述',
  ].map((word) => word.toLowerCase()),
);

const SHORT_CHARS = 30;
const ONE_LINER_CHARS = 80;

/**
 * Score a chunk's content: start at 1.0; −0.6 when the trimmed text has fewer than 30 characters;
 * −0.5 when it is only a boilerplate placeholder; −0.3 when it is a single line under 80 characters.
 * Characters are code points. Never below 0.
 */
export function scoreChunkQuality(content: string): number {
  const trimmed = content.trim();
  const chars = countCodePoints(trimmed);
  let score = 1.0;
  if (chars < SHORT_CHARS) score -= 0.6;
  if (BOILERPLATE.has(stripTrailingPunctuation(trimmed).toLowerCase())) score -= 0.5;
  if (!trimmed.includes('\n') && chars < ONE_LINER_CHARS) score -= 0.3;
  return Math.max(0, Math.round(score * 10) / 10);
}

/**
 * The score of a chunk extracted from a PDF, Office file or source file: only the placeholder penalty applies. A
 * short slide, cell block or one-line function is what the file says, not a fragment.
 */
export function scoreExtractedChunkQuality(content: string): number {
  return BOILERPLATE.has(stripTrailingPunctuation(content.trim()).toLowerCase()) ? 0.5 : 1.0;
}

const TRAILING_PUNCTUATION = new Set(['.', '。', '、', ',', ' ']);

function stripTrailingPunctuation(text: string): string {
  let end = text.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(text[end - 1]!)) end--;
  return text.slice(0, end);
}

function countCodePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}
