// The external-data files of an ONNX model in the transformers.js layout: weights too large for one protobuf
// live next to the graph in `<file>_data`, `<file>_data_1`, …, and config.json says how many through
// `transformers.js_config.use_external_data_format` — `true` (one), a count, or a map keyed by the ONNX file
// name (`model.onnx`) or its base name (`model`), the forms transformers.js 4 reads.

import path from 'node:path';

/** Above this count the library refuses the config; so does groove, naming it. */
export const MAX_EXTERNAL_DATA_CHUNKS = 100;

function chunkCount(declared: unknown, fileName: string, baseName: string): number {
  if (declared === null || declared === undefined || declared === false) return 0;
  if (typeof declared === 'object') {
    const map = declared as Record<string, unknown>;
    if (Object.hasOwn(map, fileName)) return Number(map[fileName]);
    if (Object.hasOwn(map, baseName)) return Number(map[baseName]);
    return 0;
  }
  return Number(declared);
}

export type ExternalDataDeclaration = { ok: true; files: string[] } | { ok: false; reason: string };

/**
 * The external-data files config.json declares for `onnxFile` (relative to the folder, e.g.
 * `onnx/model.onnx_data`), or why the declaration is unusable.
 */
export function declaredExternalData(
  config: Record<string, unknown>,
  onnxFile: string,
): ExternalDataDeclaration {
  const custom = config['transformers.js_config'];
  const declared =
    custom !== null && typeof custom === 'object'
      ? (custom as Record<string, unknown>).use_external_data_format
      : undefined;
  const fileName = path.posix.basename(onnxFile);
  // The base name drops the dtype suffix too: `model_quantized.onnx` is keyed `model`.
  const baseName = fileName.replace(/(_quantized)?\.onnx$/, '');
  const count = chunkCount(declared, fileName, baseName);
  if (!Number.isInteger(count) || count < 0 || count > MAX_EXTERNAL_DATA_CHUNKS) {
    return {
      ok: false,
      reason: `declares ${JSON.stringify(declared)} external-data files for ${fileName}, not a count from 0 to ${MAX_EXTERNAL_DATA_CHUNKS}`,
    };
  }
  const files = Array.from({ length: count }, (_, i) => `${onnxFile}_data${i === 0 ? '' : `_${i}`}`);
  return { ok: true, files };
}
