// BERT-shaped ONNX graphs for test models: `tiny` (embeddings + one tanh layer, hidden 32) and `minilm-l6`
// (the real MiniLM-L6 compute: 6 layers, 12 heads, LayerNormalization, Erf GELU, masked attention).

import { GraphBuilder, type OnnxModelBytes } from './onnx-builder.js';

export type TestModelKind = 'embed' | 'rerank';

export interface BertShape {
  vocabSize: number;
  hidden: number;
  layers: number;
  heads: number;
  intermediate: number;
  maxPositions: number;
}

const WEIGHT_SCALE = 0.1;

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

function layerNorm(g: GraphBuilder, x: string, prefix: string, hidden: number): string {
  const scale = g.filled(`${prefix}.gamma`, [hidden], 1);
  const bias = g.filled(`${prefix}.beta`, [hidden], 0);
  return g.op('LayerNormalization', [x, scale, bias], { axis: -1, epsilon: { float: 1e-12 } });
}

function dense(g: GraphBuilder, x: string, prefix: string, dims: [number, number]): string {
  const w = g.weight(`${prefix}.weight`, dims, WEIGHT_SCALE);
  return g.op('Add', [g.op('MatMul', [x, w]), g.weight(`${prefix}.bias`, [dims[1]], WEIGHT_SCALE)]);
}

/** [B,S,H] → [B,heads,S,headDim] (or [B,heads,headDim,S] for keys, ready for Q·Kᵀ). */
function splitHeads(g: GraphBuilder, x: string, shape: BertShape, perm: number[]): string {
  const headDim = shape.hidden / shape.heads;
  const reshaped = g.op('Reshape', [x, g.int64Constant([0, 0, shape.heads, headDim])]);
  return g.op('Transpose', [reshaped], { perm });
}

function attention(g: GraphBuilder, x: string, maskBias: string, shape: BertShape, prefix: string): string {
  const h = shape.hidden;
  const q = splitHeads(g, dense(g, x, `${prefix}.query`, [h, h]), shape, [0, 2, 1, 3]);
  const k = splitHeads(g, dense(g, x, `${prefix}.key`, [h, h]), shape, [0, 2, 3, 1]);
  const v = splitHeads(g, dense(g, x, `${prefix}.value`, [h, h]), shape, [0, 2, 1, 3]);
  const scaled = g.op('Mul', [g.op('MatMul', [q, k]), g.floatConstant([1 / Math.sqrt(h / shape.heads)])]);
  const probs = g.op('Softmax', [g.op('Add', [scaled, maskBias])], { axis: -1 });
  const context = g.op('Transpose', [g.op('MatMul', [probs, v])], { perm: [0, 2, 1, 3] });
  const merged = g.op('Reshape', [context, g.int64Constant([0, 0, h])]);
  return dense(g, merged, `${prefix}.output`, [h, h]);
}

function gelu(g: GraphBuilder, x: string): string {
  const erf = g.op('Erf', [g.op('Mul', [x, g.floatConstant([Math.SQRT1_2])])]);
  const onePlus = g.op('Add', [erf, g.floatConstant([1])]);
  return g.op('Mul', [g.op('Mul', [x, onePlus]), g.floatConstant([0.5])]);
}

function encoderLayer(g: GraphBuilder, x: string, maskBias: string, shape: BertShape, index: number): string {
  const prefix = `layer.${index}`;
  const attended = layerNorm(
    g,
    g.op('Add', [attention(g, x, maskBias, shape, `${prefix}.attention`), x]),
    `${prefix}.attention.ln`,
    shape.hidden,
  );
  const inner = gelu(g, dense(g, attended, `${prefix}.intermediate`, [shape.hidden, shape.intermediate]));
  const out = dense(g, inner, `${prefix}.output`, [shape.intermediate, shape.hidden]);
  return layerNorm(g, g.op('Add', [out, attended]), `${prefix}.output.ln`, shape.hidden);
}

/** Word + position + token-type embeddings, then LayerNorm. Position ids are Range(0, seq_len). */
function embeddings(g: GraphBuilder, shape: BertShape): string {
  const h = shape.hidden;
  const words = g.op('Gather', [g.weight('word_emb', [shape.vocabSize, h], WEIGHT_SCALE), 'input_ids'], {
    axis: 0,
  });
  const seqLen = g.op('Gather', [g.op('Shape', ['input_ids']), g.int64Constant([1], [])], { axis: 0 });
  const positions = g.op('Range', [g.int64Constant([0], []), seqLen, g.int64Constant([1], [])]);
  const pos = g.op('Gather', [g.weight('pos_emb', [shape.maxPositions, h], WEIGHT_SCALE), positions], {
    axis: 0,
  });
  const types = g.op('Gather', [g.weight('type_emb', [2, h], WEIGHT_SCALE), 'token_type_ids'], { axis: 0 });
  return layerNorm(g, g.op('Add', [g.op('Add', [words, pos]), types]), 'embeddings.ln', h);
}

/** attention_mask [B,S] → additive bias [B,1,1,S]: 0 where attended, -10000 on padding. */
function attentionBias(g: GraphBuilder): string {
  const mask = g.op('Cast', ['attention_mask'], { to: 1 });
  const inverted = g.op('Sub', [g.floatConstant([1]), mask]);
  const bias = g.op('Mul', [inverted, g.floatConstant([-10000])]);
  return g.op('Unsqueeze', [bias, g.int64Constant([1, 2])]);
}

export function buildMiniLmGraph(kind: TestModelKind, shape: BertShape, seed: number): OnnxModelBytes {
  const g = new GraphBuilder(seed);
  const maskBias = attentionBias(g);
  let x = embeddings(g, shape);
  for (let i = 0; i < shape.layers; i++) x = encoderLayer(g, x, maskBias, shape, i);
  if (kind === 'embed') {
    g.op('Identity', [x], {}, 'last_hidden_state');
    return g.encode({
      name: 'minilm_embed',
      output: 'last_hidden_state',
      outputDims: ['batch_size', 'sequence_length', shape.hidden],
    });
  }
  // Cross-encoder head as in BertForSequenceClassification: [CLS] → pooler (dense + tanh) → 1 logit.
  const cls = g.op('Gather', [x, g.int64Constant([0], [])], { axis: 1 });
  const pooled = g.op('Tanh', [dense(g, cls, 'pooler', [shape.hidden, shape.hidden])]);
  g.op('Identity', [dense(g, pooled, 'classifier', [shape.hidden, 1])], {}, 'logits');
  return g.encode({ name: 'minilm_rerank', output: 'logits', outputDims: ['batch_size', 1] });
}
