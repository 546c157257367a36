// Word segmentation for the word-level FTS table: Intl.Segmenter splits Japanese/Chinese (and Thai, Lao, Khmer,
// Myanmar) into words so that FTS5's unicode61 tokenizer, which cannot split those scripts, sees one token per word.

/**
 * ICU's word break iterator gets super-linear on long inputs (measured: 40k chars 255 ms, 1M
 * chars > 10 min), and even at 2,000 chars it ran at half the speed of 256–512-char pieces here, so a long run is fed
 * to it in pieces of at most this many UTF-16 units (bench: Japanese KB 0.50 M chars/s at 2,000, 1.03 at 512).
 */
export const SEGMENT_PIECE_MAX_CHARS = 512;

// One instance for the process: constructing a Segmenter costs far more than segmenting a short string (several
// ms, loading ICU's dictionaries), so it is made on the first text that needs it, never for Latin-only text.
// The locale only matters for CJK dictionary selection; 'ja' also covers Chinese text.
let wordSegmenter: Intl.Segmenter | null = null;

function segmenter(): Intl.Segmenter {
  wordSegmenter ??= new Intl.Segmenter('ja', { granularity: 'word' });
  return wordSegmenter;
}

/** Scripts whose words are not separated by spaces; marks listed because their script is Common/Inherited. */
const DICTIONARY_CHAR =
  '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}' +
  '\\p{Script=Myanmar}\\u3005-\\u3007\\u3099-\\u309c\\u30fc\\uff70\\uff9e\\uff9f]';

const HAS_DICTIONARY_CHAR = new RegExp(DICTIONARY_CHAR, 'u');

/**
 * Words outside dictionary scripts: letters, digits and marks. This is what unicode61 itself would call a token
 * (it splits at every other character), so skipping ICU for such text changes no FTS token and is ~10× faster.
 */
const PLAIN_WORD = /[\p{L}\p{N}\p{M}]+/gu;

// Cut points for long text: whitespace first, then sentence-level punctuation (Japanese has no spaces).
// No word spans either, so a cut there changes nothing.
const WHITESPACE_CODES = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x3000]);
const SOFT_BREAK_CODES = new Set([...'。．！？、，；」』）'].map((ch) => ch.charCodeAt(0)));

function findCut(text: string, start: number, limit: number, codes: ReadonlySet<number>): number {
  for (let i = limit; i > start + SEGMENT_PIECE_MAX_CHARS / 2; i--) {
    if (codes.has(text.charCodeAt(i - 1))) return i;
  }
  return -1;
}

/** End of the piece starting at `start`: at most SEGMENT_PIECE_MAX_CHARS, never inside a surrogate pair. */
function findPieceEnd(text: string, start: number): number {
  const limit = start + SEGMENT_PIECE_MAX_CHARS;
  if (limit >= text.length) return text.length;
  const cut = findCut(text, start, limit, WHITESPACE_CODES);
  if (cut !== -1) return cut;
  const soft = findCut(text, start, limit, SOFT_BREAK_CODES);
  if (soft !== -1) return soft;
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

function collectPlainWords(text: string, into: string[]): void {
  for (const match of text.matchAll(PLAIN_WORD)) into.push(match[0]);
}

/**
 * ICU over the whole piece (one call per piece keeps its overhead low), but only its dictionary-script words
 * are kept as such: the text between them is re-read as plain words, so Latin words and numbers come out
 * exactly as in a piece without any CJK (`3.14` → `3 14`, like unicode61 would split it anyway).
 */
function collectMixedWords(piece: string, into: string[]): void {
  let plain = '';
  for (const segment of segmenter().segment(piece)) {
    if (!HAS_DICTIONARY_CHAR.test(segment.segment)) {
      plain += segment.segment;
      continue;
    }
    if (plain !== '') {
      collectPlainWords(plain, into);
      plain = '';
    }
    if (segment.isWordLike) into.push(segment.segment);
  }
  if (plain !== '') collectPlainWords(plain, into);
}

function collectWords(text: string, into: string[]): void {
  for (let start = 0; start < text.length; ) {
    const end = findPieceEnd(text, start);
    const piece = start === 0 && end === text.length ? text : text.slice(start, end);
    if (HAS_DICTIONARY_CHAR.test(piece)) collectMixedWords(piece, into);
    else collectPlainWords(piece, into);
    start = end;
  }
}

/**
 * Text for the word-level FTS table: the words of `text` joined by single spaces. Punctuation and whitespace
 * are dropped; case and diacritics are left for the tokenizer to fold.
 */
export function segmentForIndex(text: string): string {
  const words: string[] = [];
  collectWords(text, words);
  return words.join(' ');
}

/**
 * The words of a query, in order, duplicates kept (callers dedupe where it matters). Uses exactly the same
 * segmentation as segmentForIndex, so a query word is always a token sequence the index can contain.
 */
export function segmentQueryWords(text: string): string[] {
  const words: string[] = [];
  collectWords(text, words);
  return words;
}
