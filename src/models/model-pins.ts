// The registry's pins: for each registered model, the hub commit its files are fetched from and the size and
// SHA-256 of every file groove fetches. A download is accepted only when each file matches its pin, so a moved
// `main`, a mirror, a proxy or a damaged cache can never swap the weights an index was built with.
// A pin changes only together with a deliberate model upgrade: an index built with the old files then no longer
// matches the files, which is why the model cache verifies them.

import { GrooveError } from '../errors.js';
import { type ModelSpec, requiredModelFiles } from './model-registry.js';

export interface PinnedFile {
  /** Exact length in bytes. */
  size: number;
  /** SHA-256 of the file's bytes, lowercase hex. */
  sha256: string;
}

export interface ModelPin {
  /** The hub commit (40 hex digits) every file is fetched from: `<hub>/<repo>/resolve/<revision>/<file>`. */
  revision: string;
  /** Every file requiredModelFiles lists, by its path in the repository. */
  files: Readonly<Record<string, PinnedFile>>;
}

/** Pins by registry id. Values are the public repositories' own: each file's LFS SHA-256 or the bytes' SHA-256. */
export const MODEL_PINS: Readonly<Record<string, ModelPin>> = {
  'multilingual-e5-small': {
    revision: '761b726dd34fb83930e26aab4e9ac3899aa1fa78',
    files: {
      'config.json': {
        size: 658,
        sha256: 'cb99455288675345e1a4f411438d5d0adbba5fbd3a67ea4fb03c015433b996c1',
      },
      'tokenizer.json': {
        size: 17_082_730,
        sha256: '0b44a9d7b51c3c62626640cda0e2c2f70fdacdc25bbbd68038369d14ebdf4c39',
      },
      'tokenizer_config.json': {
        size: 443,
        sha256: 'a1d6bc8734a6f635dc158508bef000f8e2e5a759c7d92f984b2c86e5ff53425b',
      },
      'onnx/model_quantized.onnx': {
        size: 118_308_185,
        sha256: 'f80102d3f2a1229f387d3c81909990d8945513e347b0eab049f7de3c6f98c193',
      },
    },
  },
  'bge-small-en-v1.5': {
    revision: 'ea104dacec62c0de699686887e3f920caeb4f3e3',
    files: {
      'config.json': {
        size: 683,
        sha256: 'fa73f90bf92c8cace1fbcb709626306f2bdbc9ea3e5b5f94b440df9b6aa56350',
      },
      'tokenizer.json': {
        size: 711_396,
        sha256: 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66',
      },
      'tokenizer_config.json': {
        size: 366,
        sha256: '9261e7d79b44c8195c1cada2b453e55b00aeb81e907a6664974b4d7776172ab3',
      },
      'onnx/model_quantized.onnx': {
        size: 34_014_426,
        sha256: '6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4',
      },
    },
  },
  'bge-m3': {
    revision: '4de13258303883538bd53b696b452bf8099f0858',
    files: {
      'config.json': {
        size: 770,
        sha256: '734a79bf12d388c1467a4e3ab625f45de7f6906cffcfb93a1eca1787504bed95',
      },
      'tokenizer.json': {
        size: 17_082_821,
        sha256: '6710678b12670bc442b99edc952c4d996ae309a7020c1fa0096dd245c2faf790',
      },
      'tokenizer_config.json': {
        size: 1_173,
        sha256: '7e4c1cc848840aeccdd763458c18dd525eb0f795c992e00ebe9c28554e7db2d4',
      },
      'onnx/model_quantized.onnx': {
        size: 569_694_530,
        sha256: '0826f8c1ab9edf1801db86c61919d4d108e8bfc0b809ec823ad366882ff0b77d',
      },
    },
  },
  'bge-reranker-base': {
    revision: '280bcc27a84e0b898c251e06fddb25171bd9b101',
    files: {
      'config.json': {
        size: 782,
        sha256: 'b6575b9d5be20d6747417c8e20c5a0db1636356e0b6d422d7244c628423c4d4c',
      },
      'tokenizer.json': {
        size: 17_098_079,
        sha256: '48564c5c7d3fa64d85d95e65414a542385f88b0f128fd8d4163fd7a57f2be05c',
      },
      'tokenizer_config.json': {
        size: 443,
        sha256: 'a1d6bc8734a6f635dc158508bef000f8e2e5a759c7d92f984b2c86e5ff53425b',
      },
      'onnx/model_quantized.onnx': {
        size: 279_301_077,
        sha256: 'dd98f3e67837d23210a6b7550c08cced4f61845b940ac45be3565840a10f3244',
      },
    },
  },
  'bge-reranker-v2-m3': {
    revision: '6f5ff65298512715a1e669753bc754d2bc8f367b',
    files: {
      'config.json': {
        size: 848,
        sha256: '122e922dcfed6503c8721e6fe1daf090340c3d95ca7f3aa3a72730b321a51cfd',
      },
      'tokenizer.json': {
        size: 17_082_900,
        sha256: '8bf8afbfd11306bd872018c53bfdf2e160a56f8edbcf49933324404791c148d3',
      },
      'tokenizer_config.json': {
        size: 1_203,
        sha256: 'b87c8703482b0300d3da30e201519aa641f6a450f5eb5bf1e624afbf70c74d80',
      },
      'onnx/model_quantized.onnx': {
        size: 570_727_094,
        sha256: '912fc1215c2dbff6499700534bd8d31253af01573861abbfc43afd1fab6cce5d',
      },
    },
  },
};

/**
 * The pin `spec` is fetched and verified against: from `pins` when given (another table of the same shape),
 * else the registry's. A pin that lacks one of the model's required files is a bug, reported as INTERNAL.
 */
export function pinFor(spec: ModelSpec, pins: Readonly<Record<string, ModelPin>> = MODEL_PINS): ModelPin {
  const pin = pins[spec.id];
  const missing = pin ? requiredModelFiles(spec).filter((file) => !pin.files[file]) : ['every file'];
  if (!pin || missing.length > 0) {
    throw new GrooveError(
      'INTERNAL',
      `Model "${spec.id}" has no pinned revision and checksum for ${missing.join(', ')}.`,
      { hint: 'this is a bug in groove: please report it' },
    );
  }
  return pin;
}
