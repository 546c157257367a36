// The token count a budget is spent in when no tokenizer is loaded: a per-script estimate. Scripts written
// without spaces (Han, kana, Hangul, Thai…) cost about one token per character in subword vocabularies; other
// text costs about one token per four characters (whitespace included). Both parts are summed, then rounded up.
import { pairSafeEnd } from '../core/utf16-cut.js';

/** Characters counted as one token each: scripts without spaces between words and their full-width punctuation. */
const ONE_TOKEN_CHAR =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u3000-\u303f\uff00-\uffef]/u;

/** Characters of other text that make one token. */
export const CHARS_PER_TOKEN = 4;

/** The estimated token count of `text`: one per unspaced-script character, one per 4 other code points. */
export function estimateTokens(text: string): number {
  let unspaced = 0;
  let other = 0;
  for (const ch of text) {
    if (ONE_TOKEN_CHAR.test(ch)) unspaced++;
    else other++;
  }
  return Math.ceil(unspaced + other / CHARS_PER_TOKEN);
}

/**
 * The longest prefix of `text` (in UTF-16 units, never half a surrogate pair) that `count` puts at `maxTokens`
 * or fewer; `count` must not decrease as a prefix grows.
 */
export function prefixWithinTokens(text: string, maxTokens: number, count: (text: string) => number): string {
  if (count(text) <= maxTokens) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (count(text.slice(0, mid)) <= maxTokens) low = mid;
    else high = mid - 1;
  }
  return text.slice(0, pairSafeEnd(text, low));
}
