// What a model folder's sentence-transformers files say: the pooling (`1_Pooling/config.json`), the query and
// passage prompts (`config_sentence_transformers.json`) and the input limit (`sentence_bert_config.json`).
// Missing or unreadable files say nothing; they are optional in a transformers.js folder.

import fs from 'node:fs';
import path from 'node:path';
import type { Pooling } from '../types.js';

export interface SentenceTransformersConfig {
  /** The one pooling mode switched on, if groove does it; another mode (or several) by name; null: no file. */
  pooling: Pooling | { unsupported: string } | null;
  /** `pooling_mode_cls_token` is true (the rule of indexes built before groove recorded pooling reads only this). */
  clsTokenFlag: boolean;
  /** Non-empty prompts only; null when absent. `document` is read when there is no `passage` prompt. */
  queryPrompt: string | null;
  passagePrompt: string | null;
  /** `max_seq_length`: the model truncates its inputs there. */
  maxSeqLength: number | null;
}

type Json = Record<string, unknown>;

function readOptionalJson(folder: string, file: string): Json | null {
  try {
    const value: unknown = JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

const MODE_PREFIX = 'pooling_mode_';

function poolingOf(config: Json | null): SentenceTransformersConfig['pooling'] {
  if (!config) return null;
  const modes = Object.entries(config)
    .filter(([key, on]) => key.startsWith(MODE_PREFIX) && on === true)
    .map(([key]) => key.slice(MODE_PREFIX.length));
  if (modes.length === 1 && modes[0] === 'cls_token') return 'cls';
  if (modes.length === 1 && modes[0] === 'mean_tokens') return 'mean';
  return { unsupported: modes.length === 0 ? 'no' : modes.join(' + ') };
}

function prompt(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

export function readSentenceTransformers(folder: string): SentenceTransformersConfig {
  const pooling = readOptionalJson(folder, path.join('1_Pooling', 'config.json'));
  const prompts = (readOptionalJson(folder, 'config_sentence_transformers.json')?.prompts ?? {}) as Json;
  const limit = readOptionalJson(folder, 'sentence_bert_config.json')?.max_seq_length;
  return {
    pooling: poolingOf(pooling),
    clsTokenFlag: pooling?.pooling_mode_cls_token === true,
    queryPrompt: prompt(prompts.query),
    passagePrompt: prompt(prompts.passage) ?? prompt(prompts.document),
    maxSeqLength: typeof limit === 'number' && Number.isInteger(limit) && limit > 0 ? limit : null,
  };
}
