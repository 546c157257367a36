// WordPiece vocabularies for generated test models: common English words, ASCII pieces and Japanese characters,
// so tests can embed real English and Japanese text without [UNK] soup.

export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

const COMMON_WORDS = `
the a an of to and or in on at by for with from as is are was were be been being it its this that these those
i you he she we they me him her us them my your his our their what which who whom whose where when why how
not no yes all any some each every more most many much few other another such only own same so than too very
can could will would shall should may might must do does did done have has had having get got make made use used
go goes went come came see seen know known think take give find found tell ask work works call try need feel
new old good bad first last long great little right big high low small large next early young important public
one two three four five six seven eight nine ten hundred thousand million time year day week month today now
people way man woman child world life hand part place case point group number fact problem question answer
about after again against before below between during into over under through up down out off above
file files folder document documents page pages note notes text word words line lines heading section chunk
search engine index query result results rank ranking score vector vectors database table row column key value
model models embedding embeddings token tokens local remote server client network cache download offline online
password reset recovery steps account login sign settings click forgot user users email address phone support
error errors warning message fix bug test tests build run install update config configuration option options
report revenue quarterly annual financial earnings summary sales market price cost cheap flights tokyo japan
markdown knowledge base code function class method data list set map type string number true false null
python javascript typescript rust node git commit branch merge release version api http https url web
health cell cells protein gene genes disease study studies patients treatment risk effect effects clinical
learning machine neural network training language english japanese translation meaning sentence paragraph
`;

const PUNCTUATION = [...'.,;:!?\'"()[]{}<>-_/\\@#$%^&*+=|~`'];
const LETTERS = [...'abcdefghijklmnopqrstuvwxyz0123456789'];
const JAPANESE_PUNCTUATION = [...'。、・「」『』（）！？：；〜ー'];

function codePointRange(from: number, to: number): string[] {
  const out: string[] = [];
  for (let cp = from; cp <= to; cp++) out.push(String.fromCodePoint(cp));
  return out;
}

function unique(tokens: string[]): string[] {
  return [...new Set(tokens)];
}

export function listCommonWords(): string[] {
  return unique(COMMON_WORDS.split(/\s+/).filter((w) => w.length > 0));
}

/**
 * The tiny vocabulary: every token a test sentence needs. Kana need `##` forms because BERT's pre-tokenizer
 * keeps a kana run as one word; CJK ideographs are split one per word, so the whole block is included.
 */
export function buildTinyVocab(): string[] {
  const hiragana = codePointRange(0x3041, 0x3096);
  const katakana = codePointRange(0x30a1, 0x30ff);
  const ideographs = codePointRange(0x4e00, 0x9fff);
  return unique([
    ...SPECIAL_TOKENS,
    ...listCommonWords(),
    ...PUNCTUATION,
    ...LETTERS,
    ...LETTERS.map((c) => `##${c}`),
    ...JAPANESE_PUNCTUATION,
    ...hiragana,
    ...katakana,
    ...hiragana.map((c) => `##${c}`),
    ...katakana.map((c) => `##${c}`),
    ...ideographs,
  ]);
}

/**
 * A MiniLM-sized vocabulary (~37k): the tiny English part plus every letter bigram and trigram as word starts
 * and `##` continuations, so English text splits into word pieces at a realistic-ish rate.
 */
export function buildMiniLmVocab(): string[] {
  const grams: string[] = [];
  const alphabet = [...'abcdefghijklmnopqrstuvwxyz'];
  for (const a of alphabet) {
    for (const b of alphabet) {
      grams.push(a + b);
      for (const c of alphabet) grams.push(a + b + c);
    }
  }
  return unique([
    ...SPECIAL_TOKENS,
    ...listCommonWords(),
    ...PUNCTUATION,
    ...LETTERS,
    ...LETTERS.map((c) => `##${c}`),
    ...grams,
    ...grams.map((g) => `##${g}`),
  ]);
}
