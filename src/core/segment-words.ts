// Word segmentation for the word-level FTS table: Intl.Segmenter splits Japanese/Chinese into words so that
// FTS5's unicode61 tokenizer (which cannot split CJK on its own) sees one token per word.

/**
 * ICU's word break iterator gets super-linear on long inputs (stack-notes §1: 40k chars 255 ms, 1M chars
 * > 10 min), so text is fed to it in pieces of at most this many UTF-16 units.
 */
export const SEGMENT_PIECE_MAX_CHARS = 2000;

// One instance for the process: constructing a Segmenter costs far more than segmenting a short string.
// The locale only matters for CJK dictionary selection; 'ja' also covers Chinese text.
const wordSegmenter = new Intl.Segmenter('ja', { granularity: 'word' });

const WHITESPACE = /\s/u;
// Sentence-level punctuation is the next-best cut point when a piece has no whitespace (long CJK paragraphs).
const SOFT_BREAK = /[。．！？、，,.!?;；]/u;

/** Cut `text` into pieces of at most `maxChars`, preferring whitespace, then punctuation, never a surrogate pair. */
function splitIntoPieces(text: string, maxChars: number): string[] {
  if (text.length <= maxChars) return [text];
  const pieces: string[] = [];
  let start = 0;
  while (text.length - start > maxChars) {
    const limit = start + maxChars;
    let cut = -1;
    for (let i = limit; i > start + maxChars / 2; i--) {
      if (WHITESPACE.test(text[i - 1]!)) {
        cut = i;
        break;
      }
    }
    if (cut === -1) {
      for (let i = limit; i > start + maxChars / 2; i--) {
        if (SOFT_BREAK.test(text[i - 1]!)) {
          cut = i;
          break;
        }
      }
    }
    if (cut === -1) {
      cut = limit;
      const code = text.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut -= 1; // keep the surrogate pair together
    }
    pieces.push(text.slice(start, cut));
    start = cut;
  }
  pieces.push(text.slice(start));
  return pieces;
}

function collectWords(text: string, into: string[]): void {
  for (const piece of splitIntoPieces(text, SEGMENT_PIECE_MAX_CHARS)) {
    for (const segment of wordSegmenter.segment(piece)) {
      if (segment.isWordLike) into.push(segment.segment);
    }
  }
}

/**
 * Text for the word-level FTS table: the word-like segments of `text` joined by single spaces.
 * Punctuation and whitespace are dropped; case and diacritics are left for the tokenizer to fold.
 */
export function segmentForIndex(text: string): string {
  const words: string[] = [];
  collectWords(text, words);
  return words.join(' ');
}

/** The word-like segments of a query, in order, duplicates kept (callers dedupe where it matters). */
export function segmentQueryWords(text: string): string[] {
  const words: string[] = [];
  collectWords(text, words);
  return words;
}
