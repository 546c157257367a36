// How a `--model-dir` folder's pooling, prefixes and token limit are decided (folder-setup.ts), on folders that
// hold only the small JSON files and model card the decision reads.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrooveError } from '../../src/errors.js';
import {
  type FolderFacts,
  type GivenSetup,
  NOTHING_GIVEN,
  resolveFolderSetup,
  type SetupRequest,
} from '../../src/models/folder-setup.js';
import { type EmbeddingModelSpec, findEmbeddingModel } from '../../src/models/model-registry.js';
import { hubCacheRepo } from '../../src/models/registered-folder.js';

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-setup-unit-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

type Json = Record<string, unknown>;

interface FolderFiles {
  config?: Json;
  tokenizerClass?: string;
  readme?: string;
  pooling?: Json;
  prompts?: Json;
  maxSeqLength?: number;
}

function shapeConfig(spec: EmbeddingModelSpec): Json {
  const s = spec.shape;
  return {
    architectures: [s.architecture],
    model_type: s.modelType,
    hidden_size: s.hiddenSize,
    num_hidden_layers: s.layers,
    num_attention_heads: s.heads,
    intermediate_size: s.intermediateSize,
    vocab_size: s.vocabSize,
    max_position_embeddings: s.maxPositions,
  };
}

let folders = 0;
function folderWith(files: FolderFiles, at?: string): FolderFacts {
  const folder = at ?? path.join(tmp, `folder-${++folders}`);
  const write = (file: string, value: unknown) => {
    fs.mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
    fs.writeFileSync(path.join(folder, file), typeof value === 'string' ? value : JSON.stringify(value));
  };
  write('config.json', files.config ?? {});
  if (files.readme !== undefined) write('README.md', files.readme);
  if (files.pooling) write('1_Pooling/config.json', files.pooling);
  if (files.prompts) write('config_sentence_transformers.json', { prompts: files.prompts });
  if (files.maxSeqLength) write('sentence_bert_config.json', { max_seq_length: files.maxSeqLength });
  const tokenizerConfig = files.tokenizerClass ? { tokenizer_class: files.tokenizerClass } : {};
  return { folder, config: files.config ?? {}, tokenizerConfig, tokenizerMaxTokens: 512 };
}

function decide(
  facts: FolderFacts,
  given: Partial<GivenSetup> = {},
  recorded: SetupRequest['recorded'] = null,
) {
  return resolveFolderSetup(facts, { given: { ...NOTHING_GIVEN, ...given }, recorded });
}

function refusal(work: () => unknown): GrooveError {
  try {
    work();
  } catch (error) {
    if (error instanceof GrooveError) return error;
    throw error;
  }
  throw new Error('expected a GrooveError');
}

const bge = findEmbeddingModel('bge-small-en-v1.5');
const e5 = findEmbeddingModel('multilingual-e5-small');
const m3 = findEmbeddingModel('bge-m3');
const CLS_ONLY = { pooling_mode_cls_token: true, pooling_mode_mean_tokens: false };
const MEAN_ONLY = { pooling_mode_cls_token: false, pooling_mode_mean_tokens: true };

describe('a folder of a registered model', () => {
  it('is recognised by config.json _name_or_path and its shape, and gets the model setup', () => {
    const facts = folderWith({
      config: { ...shapeConfig(bge), _name_or_path: 'BAAI/bge-small-en-v1.5' },
      tokenizerClass: 'BertTokenizerFast',
    });
    expect(decide(facts)).toEqual({
      setup: {
        pooling: 'cls',
        queryPrefix: bge.queryPrefix,
        passagePrefix: '',
        source: 'registered model bge-small-en-v1.5 (config.json _name_or_path "BAAI/bge-small-en-v1.5")',
      },
      maxTokens: 512,
    });
  });

  it('is recognised by a transformers.js conversion card (base_model as a list too)', () => {
    const readme =
      '---\nlibrary_name: transformers.js\nbase_model:\n- intfloat/multilingual-e5-small\n---\n# card\n';
    const facts = folderWith({ config: shapeConfig(e5), tokenizerClass: 'XLMRobertaTokenizer', readme });
    expect(decide(facts).setup).toMatchObject({
      pooling: 'mean',
      queryPrefix: 'query: ',
      passagePrefix: 'passage: ',
    });
  });

  it('is recognised by the hub cache path, with the model token limit', () => {
    const at = path.join(tmp, 'hub', 'models--Xenova--bge-m3', 'snapshots', '0123abc');
    const facts = folderWith({ config: shapeConfig(m3), tokenizerClass: 'XLMRobertaTokenizer' }, at);
    expect(decide(facts)).toMatchObject({ setup: { pooling: 'cls' }, maxTokens: 1024 });
    expect(decide(facts).setup.source).toContain('the hub cache path "Xenova/bge-m3"');
  });

  it('reads a hub cache path in config.json _name_or_path too', () => {
    expect(hubCacheRepo('/home/u/.cache/huggingface/hub/models--BAAI--bge-m3/snapshots/5617a9f/')).toBe(
      'BAAI/bge-m3',
    );
    expect(hubCacheRepo('/models/bge-m3')).toBeNull();
  });

  it('gives way to what the user gives, field by field', () => {
    const facts = folderWith({
      config: { ...shapeConfig(bge), _name_or_path: 'BAAI/bge-small-en-v1.5' },
      tokenizerClass: 'BertTokenizer',
    });
    const { setup } = decide(facts, { queryPrefix: '' });
    expect(setup).toMatchObject({ pooling: 'cls', queryPrefix: '', passagePrefix: '' });
    expect(setup.source).toMatch(/^registered model bge-small-en-v1\.5 .*; given: query prefix$/);
  });
});

describe('a folder that is not quite a registered model', () => {
  it('has the shape of one but names none (all-MiniLM-L12-v2 has bge-small-en-v1.5 shape): refused', () => {
    const facts = folderWith({ config: shapeConfig(bge), tokenizerClass: 'BertTokenizer' });
    const error = refusal(() => decide(facts));
    expect(error.code).toBe('MODEL_POOLING_UNKNOWN');
    expect(error.message).toContain('names no registered model');
  });

  it('names one but has another shape: refused, saying how it differs', () => {
    const facts = folderWith({
      config: { ...shapeConfig(bge), hidden_size: 768, _name_or_path: 'BAAI/bge-small-en-v1.5' },
      tokenizerClass: 'BertTokenizer',
    });
    const error = refusal(() => decide(facts));
    expect(error.message).toContain('hidden_size 768 vs 384');
  });

  it('names one only as the base of a fine-tune card: not a name of the folder', () => {
    const readme = '---\nlibrary_name: sentence-transformers\nbase_model: BAAI/bge-small-en-v1.5\n---\n';
    const facts = folderWith({ config: shapeConfig(bge), tokenizerClass: 'BertTokenizer', readme });
    expect(refusal(() => decide(facts)).code).toBe('MODEL_POOLING_UNKNOWN');
  });

  it('names one but its own sentence-transformers config pools otherwise: that config wins', () => {
    const facts = folderWith({
      config: { ...shapeConfig(bge), _name_or_path: 'BAAI/bge-small-en-v1.5' },
      tokenizerClass: 'BertTokenizer',
      pooling: MEAN_ONLY,
    });
    expect(decide(facts).setup).toEqual({
      pooling: 'mean',
      queryPrefix: '',
      passagePrefix: '',
      source: 'sentence-transformers config of the folder',
    });
  });
});

describe('a sentence-transformers folder', () => {
  it('gets its pooling, its prompts and its max_seq_length', () => {
    const facts = folderWith({
      pooling: CLS_ONLY,
      prompts: { query: 'q: ', document: 'd: ' },
      maxSeqLength: 256,
    });
    expect(decide(facts)).toMatchObject({
      setup: { pooling: 'cls', queryPrefix: 'q: ', passagePrefix: 'd: ' },
      maxTokens: 256,
    });
  });

  it('asking for a pooling groove does not do is refused, naming it', () => {
    const facts = folderWith({ pooling: { pooling_mode_max_tokens: true } });
    expect(refusal(() => decide(facts)).message).toContain('asks for max_tokens pooling');
    expect(decide(facts, { pooling: 'mean' }).setup.pooling).toBe('mean');
  });
});

describe('a bare folder', () => {
  it('is refused with the flags in the hint, accepted with a pooling given', () => {
    const facts = folderWith({});
    const error = refusal(() => decide(facts));
    expect(error.message).toContain(facts.folder);
    expect(error.hint).toContain('--pooling mean or --pooling cls');
    expect(decide(facts, { pooling: 'mean', passagePrefix: 'p: ' }).setup).toEqual({
      pooling: 'mean',
      queryPrefix: '',
      passagePrefix: 'p: ',
      source: 'given: pooling, passage prefix',
    });
  });

  it('takes the setup the followed index records; given values still win', () => {
    const facts = folderWith({});
    const recorded = {
      pooling: 'cls',
      queryPrefix: 'q ',
      passagePrefix: '',
      source: 'given: pooling',
    } as const;
    expect(decide(facts, {}, recorded).setup).toEqual(recorded);
    expect(decide(facts, { pooling: 'mean' }, recorded).setup).toMatchObject({
      pooling: 'mean',
      queryPrefix: 'q ',
    });
  });

  it('of an index built before groove recorded pooling keeps that rule: mean and no prefixes', () => {
    const facts = folderWith({ config: { ...shapeConfig(bge), _name_or_path: 'BAAI/bge-small-en-v1.5' } });
    expect(decide(facts, {}, 'unrecorded').setup).toMatchObject({ pooling: 'mean', queryPrefix: '' });
  });
});
