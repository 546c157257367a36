// The tokenizer files of a generated test model: a BERT WordPiece `tokenizer.json` plus `tokenizer_config.json`,
// in the layout transformers.js reads from a local folder.

import { SPECIAL_TOKENS } from './test-vocab.js';

export interface TokenizerFiles {
  tokenizerJson: unknown;
  tokenizerConfig: unknown;
}

const special = (id: string, typeId: number) => ({ SpecialToken: { id, type_id: typeId } });
const sequence = (id: 'A' | 'B', typeId: number) => ({ Sequence: { id, type_id: typeId } });

export function buildTokenizerFiles(vocabList: string[], maxTokens: number): TokenizerFiles {
  const vocab = Object.fromEntries(vocabList.map((token, i) => [token, i]));
  const idOf = (token: string) => vocab[token] as number;
  const tokenizerJson = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content) => ({
      id: idOf(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special('[CLS]', 0), sequence('A', 0), special('[SEP]', 0)],
      pair: [
        special('[CLS]', 0),
        sequence('A', 0),
        special('[SEP]', 0),
        sequence('B', 1),
        special('[SEP]', 1),
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [idOf('[CLS]')], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [idOf('[SEP]')], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
  const tokenizerConfig = {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: maxTokens,
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    mask_token: '[MASK]',
  };
  return { tokenizerJson, tokenizerConfig };
}
