// Which registered embedding model a local folder holds. A folder holds one when it names the model — the hub
// cache path it sits in (`models--<owner>--<name>/snapshots/<revision>`), the `base_model` of a transformers.js
// conversion card (README.md front matter), or config.json `_name_or_path` — and carries the model's shape
// (FolderShape). Neither is enough alone: a fine-tune keeps its base model's name, and another model can have
// the same shape (all-MiniLM-L12-v2 has bge-small-en-v1.5's).

import fs from 'node:fs';
import path from 'node:path';
import { splitFrontmatter } from '../document/frontmatter.js';
import { EMBEDDING_MODELS, type EmbeddingModelSpec, type FolderShape } from './model-registry.js';

type Json = Record<string, unknown>;

export interface RecordedName {
  name: string;
  /** Where the folder records it, e.g. `config.json _name_or_path`. */
  where: string;
}

export type Recognition =
  | { spec: EmbeddingModelSpec; evidence: string }
  /** `note` says why a registered model the folder names is not the one it holds, or is null. */
  | { spec: null; note: string | null };

/** A model card is read only this far: front matter comes first. */
const README_BYTES = 64 * 1024;

/** `owner/name` from a path inside the hub cache (`…/models--owner--name/snapshots/<revision>`), or null. */
export function hubCacheRepo(folder: string): string | null {
  const parts = folder.split(/[\\/]+/).filter((part) => part !== '');
  const at = parts.length - 3;
  if (at < 0 || parts[at + 1] !== 'snapshots') return null;
  const match = /^models--(.+?)--(.+)$/.exec(parts[at] ?? '');
  return match ? `${match[1]}/${match[2]}` : null;
}

function readModelCard(folder: string): string | null {
  let handle: number | null = null;
  try {
    handle = fs.openSync(path.join(folder, 'README.md'), 'r');
    const buffer = Buffer.alloc(README_BYTES);
    const length = fs.readSync(handle, buffer, 0, README_BYTES, 0);
    return buffer.subarray(0, length).toString('utf8');
  } catch {
    return null;
  } finally {
    if (handle !== null) fs.closeSync(handle);
  }
}

/** The `base_model` of a transformers.js conversion card: the repository whose weights the folder holds. */
function convertedFrom(card: string): string[] {
  const extra = splitFrontmatter(card).metadata.extra;
  if (extra.library_name !== 'transformers.js') return [];
  const base = extra.base_model;
  const names = Array.isArray(base) ? base : [base];
  return names.filter((name): name is string => typeof name === 'string' && name.trim() !== '');
}

/** Every name the folder records for the model it holds, most specific first. */
export function namesRecordedBy(folder: string, config: Json): RecordedName[] {
  const names: RecordedName[] = [];
  const cached = hubCacheRepo(folder);
  if (cached) names.push({ name: cached, where: 'the hub cache path' });
  const card = readModelCard(folder);
  for (const name of card ? convertedFrom(card) : []) {
    names.push({ name, where: 'README.md base_model' });
  }
  const recorded = config._name_or_path;
  if (typeof recorded === 'string' && recorded.trim() !== '') {
    // A local path there may itself be a hub cache path.
    names.push({ name: hubCacheRepo(recorded) ?? recorded, where: 'config.json _name_or_path' });
  }
  return names;
}

function registeredNamed(name: string): EmbeddingModelSpec | null {
  const wanted = name.trim().toLowerCase();
  return (
    EMBEDDING_MODELS.find((spec) =>
      [spec.id, spec.hubRepo, ...spec.aliases].some((known) => known.toLowerCase() === wanted),
    ) ?? null
  );
}

function tokenizerClassOf(config: Json, tokenizerConfig: Json): unknown {
  const declared = tokenizerConfig.tokenizer_class ?? config.tokenizer_class;
  return typeof declared === 'string' ? declared.replace(/Fast$/, '') : declared;
}

/** How the folder's config differs from the shape, one `key value vs expected` entry per field. */
export function shapeDifferences(shape: FolderShape, config: Json, tokenizerConfig: Json): string[] {
  const architectures = Array.isArray(config.architectures) ? config.architectures : [];
  const found: Record<keyof FolderShape, [string, unknown]> = {
    architecture: ['architectures', architectures[0]],
    modelType: ['model_type', config.model_type],
    hiddenSize: ['hidden_size', config.hidden_size],
    layers: ['num_hidden_layers', config.num_hidden_layers],
    heads: ['num_attention_heads', config.num_attention_heads],
    intermediateSize: ['intermediate_size', config.intermediate_size],
    vocabSize: ['vocab_size', config.vocab_size],
    maxPositions: ['max_position_embeddings', config.max_position_embeddings],
    tokenizerClass: ['tokenizer_class', tokenizerClassOf(config, tokenizerConfig)],
  };
  return (Object.keys(found) as (keyof FolderShape)[])
    .filter((field) => found[field][1] !== shape[field])
    .map((field) => `${found[field][0]} ${JSON.stringify(found[field][1]) ?? 'missing'} vs ${shape[field]}`);
}

/** The registered model the folder holds, with the evidence; or why none is. */
export function recognizeRegisteredModel(folder: string, config: Json, tokenizerConfig: Json): Recognition {
  let note: string | null = null;
  for (const { name, where } of namesRecordedBy(folder, config)) {
    const spec = registeredNamed(name);
    if (!spec) continue;
    const differences = shapeDifferences(spec.shape, config, tokenizerConfig);
    if (differences.length === 0) return { spec, evidence: `${where} "${name}"` };
    note ??= `${where} names "${name}", but its config differs from ${spec.id}'s (${differences.join(', ')})`;
  }
  return { spec: null, note };
}
