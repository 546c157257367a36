// CLI: generate a small real ONNX test model with tokenizer files.
// Usage: npm run gen:test-model -- --kind embed|rerank --shape tiny|minilm-l6 --out DIR [--hidden N] [--pooling mean|cls]

import { parseArgs } from 'node:util';
import { type TestModelShape, writeTestModel } from './test-model/write-test-model.js';

function fail(message: string): never {
  process.stderr.write(`gen-test-model: ${message}\n`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    kind: { type: 'string', default: 'embed' },
    shape: { type: 'string', default: 'tiny' },
    out: { type: 'string' },
    hidden: { type: 'string' },
    pooling: { type: 'string', default: 'mean' },
    seed: { type: 'string', default: '42' },
  },
});

const kind = values.kind;
if (kind !== 'embed' && kind !== 'rerank') fail(`--kind must be embed or rerank, got "${kind}"`);
const shape = values.shape as TestModelShape;
if (shape !== 'tiny' && shape !== 'minilm-l6') fail(`--shape must be tiny or minilm-l6, got "${shape}"`);
if (!values.out) fail('--out DIR is required (the model folder to create)');
const pooling = values.pooling;
if (pooling !== 'mean' && pooling !== 'cls') fail(`--pooling must be mean or cls, got "${pooling}"`);
const hidden = values.hidden === undefined ? undefined : Number(values.hidden);
if (hidden !== undefined && !(Number.isInteger(hidden) && hidden > 0))
  fail('--hidden must be a positive integer');

const started = performance.now();
const result = writeTestModel({
  kind,
  shape,
  outDir: values.out,
  pooling,
  seed: Number(values.seed),
  ...(hidden === undefined ? {} : { hidden }),
});
const ms = Math.round(performance.now() - started);
process.stdout.write(
  `wrote ${kind} ${shape} model to ${result.dir} (dimension ${result.dimension}, vocab ${result.vocabSize}, ` +
    `onnx ${(result.modelBytes / 1e6).toFixed(1)} MB) in ${ms} ms\n`,
);
