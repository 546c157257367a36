// XLM-RoBERTa-style tokenizer files for generated test models: a SentencePiece Unigram `tokenizer.json` with the
// Metaspace pre-tokenizer and decoder, `<s> A </s>` / `<s> A </s></s> B </s>` templates, and XLM-R's special
// ids (`<s>` 0, `<pad>` 1, `</s>` 2, `<unk>` 3, `<mask>` last), plus its `tokenizer_config.json`.

import { listCommonWords } from './test-vocab.js';
import type { TokenizerFiles } from './tokenizer-files.js';

/** A piece and its log-probability score; Viterbi picks the segmentation with the highest sum. */
export type UnigramPiece = [string, number];

const METASPACE = '\u2581';
const LEADING_SPECIALS = ['<s>', '<pad>', '</s>', '<unk>'] as const;
const MASK = '<mask>';
// Whole words beat n-grams, and n-grams beat single characters, so English splits at word boundaries.
const WORD_SCORE = -8;
const GRAM_SCORE = -11;
const CHAR_SCORE = -14;

const LETTERS = [...'abcdefghijklmnopqrstuvwxyz'];
const CAPITALS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
const DIGITS = [...'0123456789'];
const PUNCTUATION = [...'.,;:!?\'"()[]{}<>-_/\\@#$%^&*+=|~`'];
const JAPANESE_PUNCTUATION = [...'。、・「」『』（）！？：；〜ー'];

function codePointRange(from: number, to: number): string[] {
  const out: string[] = [];
  for (let cp = from; cp <= to; cp++) out.push(String.fromCodePoint(cp));
  return out;
}

/** Pieces in order, first occurrence wins, specials around them in XLM-R's order. */
function withSpecials(pieces: UnigramPiece[]): UnigramPiece[] {
  const seen = new Set<string>([...LEADING_SPECIALS, MASK]);
  const unique = pieces.filter(([piece]) => {
    if (seen.has(piece)) return false;
    seen.add(piece);
    return true;
  });
  return [...LEADING_SPECIALS.map((s): UnigramPiece => [s, 0]), ...unique, [MASK, 0]];
}

function characterPieces(): UnigramPiece[] {
  const chars = [
    METASPACE,
    ...LETTERS,
    ...CAPITALS,
    ...DIGITS,
    ...PUNCTUATION,
    ...JAPANESE_PUNCTUATION,
    ...codePointRange(0x3041, 0x3096),
    ...codePointRange(0x30a1, 0x30ff),
    ...codePointRange(0x4e00, 0x9fff),
  ];
  return [
    ...chars.map((c): UnigramPiece => [c, CHAR_SCORE]),
    ...[...LETTERS, ...CAPITALS, ...DIGITS].map((c): UnigramPiece => [METASPACE + c, CHAR_SCORE + 1]),
  ];
}

/** The tiny vocabulary (~21k pieces): common English words with and without `▁`, characters, kana, kanji. */
export function buildTinyUnigramVocab(): UnigramPiece[] {
  const words = listCommonWords();
  return withSpecials([
    ...words.map((w): UnigramPiece => [METASPACE + w, WORD_SCORE]),
    ...words.map((w): UnigramPiece => [w, WORD_SCORE - 1]),
    ...characterPieces(),
  ]);
}

/**
 * A vocabulary of exactly `size` pieces (multilingual-e5-small's tokenizer has 250,002): the tiny one, then
 * letter bigrams, trigrams and four-grams with and without `▁` until it is full — synthetic, but a trie of the
 * real size, so tokenizing costs what it costs with the real vocabulary.
 */
export function buildSizedUnigramVocab(size: number): UnigramPiece[] {
  const base = buildTinyUnigramVocab();
  const pieces = base.slice(LEADING_SPECIALS.length, -1);
  const seen = new Set(base.map(([piece]) => piece));
  const wanted = size - LEADING_SPECIALS.length - 1;
  const add = (piece: string, score: number) => {
    if (pieces.length < wanted && !seen.has(piece)) {
      seen.add(piece);
      pieces.push([piece, score]);
    }
  };
  let grams = LETTERS;
  for (let n = 2; pieces.length < wanted && n <= 4; n++) {
    grams = grams.flatMap((g) => LETTERS.map((c) => g + c));
    for (const gram of grams) {
      add(METASPACE + gram, GRAM_SCORE + n / 10);
      add(gram, GRAM_SCORE - 1 + n / 10);
    }
  }
  if (pieces.length < wanted) throw new Error(`cannot build a vocabulary of ${size} pieces`);
  return withSpecials(pieces);
}

const special = (id: string) => ({ SpecialToken: { id, type_id: 0 } });
const sequence = (id: 'A' | 'B') => ({ Sequence: { id, type_id: 0 } });
const metaspace = {
  type: 'Metaspace',
  replacement: METASPACE,
  add_prefix_space: true,
  prepend_scheme: 'always',
};

function addedToken(content: string, id: number) {
  const mask = content === MASK;
  return { id, content, single_word: false, lstrip: mask, rstrip: false, normalized: false, special: true };
}

export function buildUnigramTokenizerFiles(vocab: UnigramPiece[], maxTokens: number): TokenizerFiles {
  const idOf = (piece: string) => vocab.findIndex(([p]) => p === piece);
  const specials = [...LEADING_SPECIALS, MASK];
  const tokenizerJson = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: specials.map((s) => addedToken(s, idOf(s))),
    normalizer: {
      type: 'Sequence',
      normalizers: [
        // SentencePiece's nmt_nfkc map; transformers.js applies NFKC and its whitespace rules without the blob.
        { type: 'Precompiled', precompiled_charsmap: null },
        { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' },
      ],
    },
    pre_tokenizer: { ...metaspace, split: true },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special('<s>'), sequence('A'), special('</s>')],
      pair: [special('<s>'), sequence('A'), special('</s>'), special('</s>'), sequence('B'), special('</s>')],
      special_tokens: {
        '<s>': { id: '<s>', ids: [idOf('<s>')], tokens: ['<s>'] },
        '</s>': { id: '</s>', ids: [idOf('</s>')], tokens: ['</s>'] },
      },
    },
    decoder: metaspace,
    model: { type: 'Unigram', unk_id: idOf('<unk>'), vocab, byte_fallback: false },
  };
  const tokenizerConfig = {
    tokenizer_class: 'XLMRobertaTokenizer',
    model_max_length: maxTokens,
    bos_token: '<s>',
    eos_token: '</s>',
    sep_token: '</s>',
    cls_token: '<s>',
    unk_token: '<unk>',
    pad_token: '<pad>',
    mask_token: MASK,
  };
  return { tokenizerJson, tokenizerConfig };
}
