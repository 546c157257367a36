// Texts longer than a 512-token model reads in one pass, made of words that are one token each in the
// generated test vocabularies, and two tails of distinct words to tell such texts apart.

/** `words` common words: 550 are about 3,600 characters and 552 tokens with [CLS] and [SEP]. */
export function fillerText(words: number): string {
  const pool =
    'the quarterly revenue report for the search engine team with the annual summary and market data';
  const list = pool.split(' ');
  return Array.from({ length: words }, (_, i) => list[i % list.length]).join(' ');
}

export const TAIL_A =
  'password reset recovery steps account login sign settings click forgot email address phone';
export const TAIL_B =
  'python javascript typescript rust node git commit branch merge release version api http';
