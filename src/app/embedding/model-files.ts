// Whether the model an index records is on this machine and can be loaded, told from its files without loading
// it: a registered model in the model cache, or the local folder the index was built from (composition root).
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { isGrooveError } from '../../errors.js';
import { findMissingModelFiles, modelFolderIn } from '../../models/model-cache.js';
import { inspectModelFolder } from '../../models/model-folder.js';
import { type EmbeddingModelSpec, findEmbeddingModel, type ModelDtype } from '../../models/model-registry.js';
import { modelCacheDirOf } from './embedder-factory.js';
import type { IndexIdentity } from './model-identity.js';

/** What is wrong with the recorded model's files and how to get them back. */
export interface ModelFilesProblem {
  /** The folder the model should be in (empty when the model id itself is unknown). */
  folder: string;
  problem: string;
  remedy: string;
}

/** Null when the index needs no model files (lexical-only, an HTTP endpoint) or they are there and intact. */
export function findModelFilesProblem(
  config: ResolvedConfig,
  identity: IndexIdentity,
): ModelFilesProblem | null {
  if (identity.provider !== 'transformers') return null;
  if (identity.modelDir) {
    const remedy = `put the model folder back at "${identity.modelDir}", or rebuild with another model (groove index --force --model <id>)`;
    return checkFolder(identity.modelDir, { dimension: identity.dimension, remedy });
  }
  const id = identity.model.replace(/^transformers:/, '');
  let spec: EmbeddingModelSpec;
  try {
    spec = findEmbeddingModel(id);
  } catch {
    return {
      folder: '',
      problem: `the index's model "${id}" is not one this groove knows`,
      remedy: 'rebuild with a model from `groove models list`: groove index --force --model <id>',
    };
  }
  const folder = modelFolderIn(modelCacheDirOf(config), spec);
  const missing = findMissingModelFiles(folder, spec);
  if (missing.length > 0) {
    return {
      folder,
      problem: `"${spec.id}" is not in the model cache (${folder} lacks ${missing.join(', ')})`,
      remedy: `groove models pull ${spec.id}`,
    };
  }
  return checkFolder(folder, {
    dimension: identity.dimension,
    dtype: spec.dtype,
    modelId: spec.id,
    remedy: `delete "${folder}" and run groove models pull ${spec.id}`,
  });
}

interface FolderExpectation {
  dimension: number;
  dtype?: ModelDtype;
  modelId?: string;
  remedy: string;
}

/** The folder as the loader would check it, plus the dimension the index's vectors have. */
function checkFolder(folder: string, expected: FolderExpectation): ModelFilesProblem | null {
  let dimension: number;
  try {
    dimension = inspectModelFolder(folder, expected.dtype, expected.modelId).dimension;
  } catch (error) {
    if (!isGrooveError(error)) throw error;
    // A damaged folder's hint names its fix; a missing folder's speaks of --model-dir, which doctor has not.
    const remedy = error.code === 'MODEL_CORRUPT' ? (error.hint ?? expected.remedy) : expected.remedy;
    return { folder, problem: error.message, remedy };
  }
  if (expected.dimension > 0 && dimension !== expected.dimension) {
    return {
      folder,
      problem: `the model in "${folder}" makes ${dimension}-dimensional vectors, the index holds ${expected.dimension}-dimensional ones`,
      remedy: expected.remedy,
    };
  }
  return null;
}
