// Reads and checks a model folder in the transformers.js layout before anything is loaded: output size from
// config.json, the tokenizer's limit, the ONNX file to use and the external-data files config.json declares for
// it. Damage → MODEL_CORRUPT naming the file and the fix. (An embedder's pooling and prefixes: folder-setup.ts.)

import fs from 'node:fs';
import path from 'node:path';
import { GrooveError } from '../errors.js';
import { declaredExternalData } from './external-data.js';
import { type ModelDtype, onnxFileFor } from './model-registry.js';

export interface ModelFolderInfo {
  folder: string;
  /** `hidden_size` from config.json. */
  dimension: number;
  config: Record<string, unknown>;
  /** tokenizer_config.json, or empty when the folder has none. */
  tokenizerConfig: Record<string, unknown>;
  /** `model_max_length` from tokenizer_config.json, capped at 512 (and 512 when absent). */
  maxTokens: number;
  dtype: ModelDtype;
  /** The external-data files of the ONNX file, relative to the folder (empty for a one-file model). */
  externalData: string[];
}

const DEFAULT_MAX_TOKENS = 512;

export interface ModelCorruptOptions {
  cause?: unknown;
  /** The registry id when the folder is a registered model's cache folder: the fix is to download it again. */
  modelId?: string | null;
}

/** How to get an intact copy: a registered model is downloaded again, a local folder copied again. */
export function corruptFolderFix(folder: string, modelId: string | null | undefined): string {
  return modelId
    ? `delete "${folder}" and run groove models pull ${modelId} to download it again`
    : `replace "${folder}" with a complete copy of the model, or delete it; for a registered model, groove models pull <id> downloads it again`;
}

export function modelCorruptError(
  folder: string,
  file: string,
  reason: string,
  options: ModelCorruptOptions = {},
): GrooveError {
  return new GrooveError(
    'MODEL_CORRUPT',
    `Model folder "${folder}" is damaged: "${file}" ${reason}. The model cannot be loaded.`,
    { hint: corruptFolderFix(folder, options.modelId), cause: options.cause },
  );
}

function readJsonFile(
  folder: string,
  file: string,
  required: boolean,
  modelId?: string | null,
): Record<string, unknown> | null {
  const full = path.join(folder, file);
  let text: string;
  try {
    text = fs.readFileSync(full, 'utf8');
  } catch (error) {
    if (!required) return null;
    throw modelCorruptError(folder, file, 'is missing', { cause: error, modelId });
  }
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object') throw new Error('not a JSON object');
    return value as Record<string, unknown>;
  } catch (error) {
    throw modelCorruptError(folder, file, 'is not valid JSON (truncated or overwritten?)', {
      cause: error,
      modelId,
    });
  }
}

function requireNonEmptyFile(folder: string, file: string, modelId?: string | null): void {
  let size: number;
  try {
    size = fs.statSync(path.join(folder, file)).size;
  } catch (error) {
    throw modelCorruptError(folder, file, 'is missing', { cause: error, modelId });
  }
  if (size === 0) throw modelCorruptError(folder, file, 'is empty', { modelId });
}

/** The external-data files config.json declares for the ONNX file, each present and non-empty. */
function requireExternalData(
  folder: string,
  config: Record<string, unknown>,
  onnxFile: string,
  modelId?: string | null,
): string[] {
  const declared = declaredExternalData(config, onnxFile);
  if (!declared.ok) throw modelCorruptError(folder, 'config.json', declared.reason, { modelId });
  for (const file of declared.files) {
    requireNonEmptyFile(folder, file, modelId);
  }
  return declared.files;
}

function pickDtype(folder: string, preferred: ModelDtype | undefined, modelId?: string | null): ModelDtype {
  if (preferred) return preferred;
  for (const dtype of ['fp32', 'q8'] as const) {
    if (fs.existsSync(path.join(folder, onnxFileFor(dtype)))) return dtype;
  }
  throw modelCorruptError(
    folder,
    onnxFileFor('fp32'),
    'is missing (nor is onnx/model_quantized.onnx there)',
    {
      modelId,
    },
  );
}

/**
 * Check a model folder and read what groove needs from it. `dtype` forces the ONNX variant (registry
 * models); otherwise `onnx/model.onnx` is preferred over `onnx/model_quantized.onnx`. `modelId` names the
 * registered model the folder holds, for the fix in a MODEL_CORRUPT hint.
 */
export function inspectModelFolder(
  dir: string,
  dtype?: ModelDtype,
  modelId?: string | null,
): ModelFolderInfo {
  // Absolute always: transformers.js would take a relative path such as "models/e5" for a hub repo id.
  const folder = path.resolve(dir);
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) {
    throw new GrooveError(
      'MODEL_UNAVAILABLE',
      `Model folder "${folder}" does not exist or is not a directory.`,
      {
        hint: 'point --model-dir at a folder with config.json, tokenizer.json and onnx/model.onnx',
      },
    );
  }
  const config = readJsonFile(folder, 'config.json', true, modelId) as Record<string, unknown>;
  const tokenizerConfig = readJsonFile(folder, 'tokenizer_config.json', false, modelId) ?? {};
  requireNonEmptyFile(folder, 'tokenizer.json', modelId);
  const chosen = pickDtype(folder, dtype, modelId);
  requireNonEmptyFile(folder, onnxFileFor(chosen), modelId);
  const externalData = requireExternalData(folder, config, onnxFileFor(chosen), modelId);
  const hidden = config.hidden_size ?? config.d_model ?? config.dim;
  if (typeof hidden !== 'number' || !Number.isInteger(hidden) || hidden <= 0) {
    throw modelCorruptError(folder, 'config.json', 'has no positive integer "hidden_size"', { modelId });
  }
  const declaredMax = tokenizerConfig.model_max_length;
  const maxTokens =
    typeof declaredMax === 'number' && declaredMax > 0
      ? Math.min(declaredMax, DEFAULT_MAX_TOKENS)
      : DEFAULT_MAX_TOKENS;
  return {
    folder,
    dimension: hidden,
    config,
    tokenizerConfig,
    maxTokens,
    dtype: chosen,
    externalData,
  };
}
