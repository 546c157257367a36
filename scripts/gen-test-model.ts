// CLI: generate a small real ONNX test model with tokenizer files.
// Usage: npm run gen:test-model -- --out DIR [--kind embed|rerank] [--shape tiny|minilm-l6|e5-small]
//   [--family bert|xlmr] [--dtype fp32|q8] [--external-data flag|count|file-key|base-key|undeclared]
//   [--hidden N] [--pooling mean|cls] [--seed N]
// `--shape e5-small` is multilingual-e5-small's real size (XLM-R, 12 layers, vocab 250,037): ~120 MB in q8,
// ~470 MB in fp32. Tests never generate it; `bench:embed --model-shape e5-small` does, on demand.

import { parseArgs } from 'node:util';
import {
  EXTERNAL_DATA_FORMS,
  type ExternalDataForm,
  type TestModelShape,
  writeTestModel,
} from './test-model/write-test-model.js';

function fail(message: string): never {
  process.stderr.write(`gen-test-model: ${message}\n`);
  process.exit(2);
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    fail(`--${flag} must be one of ${allowed.join(', ')}, got "${value}"`);
  }
  return value as T;
}

const { values } = parseArgs({
  options: {
    kind: { type: 'string', default: 'embed' },
    shape: { type: 'string', default: 'tiny' },
    family: { type: 'string', default: 'bert' },
    dtype: { type: 'string', default: 'fp32' },
    'external-data': { type: 'string' },
    out: { type: 'string' },
    hidden: { type: 'string' },
    pooling: { type: 'string', default: 'mean' },
    seed: { type: 'string', default: '42' },
  },
});

const kind = oneOf('kind', values.kind, ['embed', 'rerank']);
const shape = oneOf<TestModelShape>('shape', values.shape, ['tiny', 'minilm-l6', 'e5-small']);
const family = oneOf('family', values.family, ['bert', 'xlmr']);
const dtype = oneOf('dtype', values.dtype, ['fp32', 'q8']);
const pooling = oneOf('pooling', values.pooling, ['mean', 'cls']);
const externalData =
  values['external-data'] === undefined
    ? undefined
    : oneOf<ExternalDataForm>('external-data', values['external-data'], EXTERNAL_DATA_FORMS);
if (!values.out) fail('--out DIR is required (the model folder to create)');
const hidden = values.hidden === undefined ? undefined : Number(values.hidden);
if (hidden !== undefined && !(Number.isInteger(hidden) && hidden > 0))
  fail('--hidden must be a positive integer');

const started = performance.now();
const result = writeTestModel({
  kind,
  shape,
  family,
  dtype,
  outDir: values.out,
  pooling,
  seed: Number(values.seed),
  ...(hidden === undefined ? {} : { hidden }),
  ...(externalData === undefined ? {} : { externalData }),
});
const ms = Math.round(performance.now() - started);
const data = result.dataFile ? ` + ${result.dataFile}` : '';
process.stdout.write(
  `wrote ${kind} ${shape} model to ${result.dir} (${result.onnxFile}${data}, dimension ${result.dimension}, ` +
    `vocab ${result.vocabSize}, ${(result.modelBytes / 1e6).toFixed(1)} MB) in ${ms} ms\n`,
);
