// BERT-shaped ONNX graphs for test models: `tiny` (embeddings + one tanh layer, hidden 32) and `minilm-l6`
// (the real MiniLM-L6 compute: 6 layers, 12 heads, LayerNormalization, Erf GELU, masked attention).

import { type EncoderShape, encodeEncoderGraph, type TestModelKind } from './encoder-graph.js';
import { GraphBuilder, type OnnxModelBytes } from './onnx-builder.js';

export type { TestModelKind } from './encoder-graph.js';
export type BertShape = EncoderShape;

/** The stack-notes appendix shape: Gather embeddings, MatMul, Tanh, residual. Ignores the attention mask. */
export function buildTinyGraph(kind: TestModelKind, shape: BertShape, seed: number): OnnxModelBytes {
  const g = new GraphBuilder(seed);
  const h = shape.hidden;
  const words = g.op('Gather', [g.weight('word_emb', [shape.vocabSize, h], 1), 'input_ids'], { axis: 0 });
  const types = g.op('Gather', [g.weight('type_emb', [2, h], 1), 'token_type_ids'], { axis: 0 });
  const x0 = g.op('Add', [words, types]);
  const x1 = g.op('Add', [g.op('MatMul', [x0, g.weight('W1', [h, h], 1)]), g.weight('b1', [h], 1)]);
  if (kind === 'embed') {
    g.op('Add', [g.op('Tanh', [x1]), x0], {}, 'last_hidden_state');
    return g.encode({
      name: 'tiny_embed',
      output: 'last_hidden_state',
      outputDims: ['batch_size', 'sequence_length', h],
    });
  }
  const hidden = g.op('Add', [g.op('Tanh', [x1]), x0]);
  const pooled = g.op('ReduceMean', [hidden], { axes: [1], keepdims: 0 });
  g.op('MatMul', [pooled, g.weight('Wc', [h, 1], 1)], {}, 'logits');
  return g.encode({ name: 'tiny_rerank', output: 'logits', outputDims: ['batch_size', 1] });
}

/** The MiniLM-L6 compute in fp32; the cross-encoder head is BertForSequenceClassification's. */
export function buildMiniLmGraph(kind: TestModelKind, shape: BertShape, seed: number): OnnxModelBytes {
  return encodeEncoderGraph({ family: 'bert', kind, shape, seed, quantized: false });
}
