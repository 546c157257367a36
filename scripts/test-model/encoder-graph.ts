// The transformer encoder of the test models, in the two families the model registry uses: BERT (three inputs,
// positions 0…n−1, LayerNorm ε 1e-12) and XLM-RoBERTa (no token_type_ids input, positions counted from the
// padding id over real tokens, LayerNorm ε 1e-5). Every dense layer is fp32 MatMul or, quantized, the dynamic
// int8 pattern of the hub's `model_quantized.onnx` files (DynamicQuantizeLinear → MatMulInteger → rescale), with
// the word-embedding table stored as int8 behind DequantizeLinear.

import { BERT_INPUTS, GraphBuilder, type OnnxModelBytes, XLMR_INPUTS } from './onnx-builder.js';

export type TestModelKind = 'embed' | 'rerank';
export type ModelFamily = 'bert' | 'xlmr';

export interface EncoderShape {
  vocabSize: number;
  hidden: number;
  layers: number;
  heads: number;
  intermediate: number;
  maxPositions: number;
}

export interface EncoderGraphOptions {
  family: ModelFamily;
  kind: TestModelKind;
  shape: EncoderShape;
  seed: number;
  /** int8 weights with dynamic activation quantization (what `dtype: q8` loads). */
  quantized: boolean;
}

const WEIGHT_SCALE = 0.1;
const FLOAT_TYPE = 1;
const INT64_TYPE = 7;
/** XLM-RoBERTa's padding id: positions of real tokens start right after it. */
const XLMR_PADDING_ID = 1;
/** Token ids up to this one are the special tokens (`<s>`, `<pad>`, `</s>`, `<unk>` in XLM-R order). */
const LAST_SPECIAL_ID = 3;
/** `</s>`: ends the query in `<s> A </s></s> B </s>`. */
const XLMR_SEPARATOR_ID = 2;

interface Encoder {
  g: GraphBuilder;
  options: EncoderGraphOptions;
}

/** x · W + b, as fp32 or as the dynamic int8 pattern (int8 weights spanning the same ±scale/2 range). */
function dense(e: Encoder, x: string, prefix: string, dims: [number, number]): string {
  const { g } = e;
  if (!e.options.quantized) {
    const weight = g.weight(`${prefix}.weight`, dims, WEIGHT_SCALE);
    return g.op('Add', [g.op('MatMul', [x, weight]), g.weight(`${prefix}.bias`, [dims[1]], WEIGHT_SCALE)]);
  }
  const [quantized, xScale, xZero] = g.opOutputs('DynamicQuantizeLinear', [x], 3) as [string, string, string];
  const weight = g.int8Weight(`${prefix}.weight_quantized`, dims);
  const product = g.op('MatMulInteger', [quantized, weight, xZero, g.int8Constant([0])]);
  const scale = g.op('Mul', [xScale, g.floatConstant([WEIGHT_SCALE / 254])]);
  const bias = g.weight(`${prefix}.bias`, [dims[1]], WEIGHT_SCALE);
  return g.op('Add', [g.op('Mul', [g.op('Cast', [product], { to: FLOAT_TYPE }), scale]), bias]);
}

function layerNorm(e: Encoder, x: string, prefix: string): string {
  const { g, options } = e;
  const h = options.shape.hidden;
  const epsilon = options.family === 'bert' ? 1e-12 : 1e-5;
  const scale = g.filled(`${prefix}.gamma`, [h], 1);
  const bias = g.filled(`${prefix}.beta`, [h], 0);
  return g.op('LayerNormalization', [x, scale, bias], { axis: -1, epsilon: { float: epsilon } });
}

/** [B,S,H] → [B,heads,S,headDim] (or [B,heads,headDim,S] for keys, ready for Q·Kᵀ). */
function splitHeads(e: Encoder, x: string, perm: number[]): string {
  const { heads, hidden } = e.options.shape;
  const reshaped = e.g.op('Reshape', [x, e.g.int64Constant([0, 0, heads, hidden / heads])]);
  return e.g.op('Transpose', [reshaped], { perm });
}

function attention(e: Encoder, x: string, maskBias: string, prefix: string): string {
  const { g } = e;
  const { hidden: h, heads } = e.options.shape;
  const q = splitHeads(e, dense(e, x, `${prefix}.query`, [h, h]), [0, 2, 1, 3]);
  const k = splitHeads(e, dense(e, x, `${prefix}.key`, [h, h]), [0, 2, 3, 1]);
  const v = splitHeads(e, dense(e, x, `${prefix}.value`, [h, h]), [0, 2, 1, 3]);
  const scaled = g.op('Mul', [g.op('MatMul', [q, k]), g.floatConstant([1 / Math.sqrt(h / heads)])]);
  const probs = g.op('Softmax', [g.op('Add', [scaled, maskBias])], { axis: -1 });
  const context = g.op('Transpose', [g.op('MatMul', [probs, v])], { perm: [0, 2, 1, 3] });
  const merged = g.op('Reshape', [context, g.int64Constant([0, 0, h])]);
  return dense(e, merged, `${prefix}.output`, [h, h]);
}

function gelu(g: GraphBuilder, x: string): string {
  const erf = g.op('Erf', [g.op('Mul', [x, g.floatConstant([Math.SQRT1_2])])]);
  const onePlus = g.op('Add', [erf, g.floatConstant([1])]);
  return g.op('Mul', [g.op('Mul', [x, onePlus]), g.floatConstant([0.5])]);
}

function encoderLayer(e: Encoder, x: string, maskBias: string, index: number): string {
  const prefix = `layer.${index}`;
  const { hidden, intermediate } = e.options.shape;
  const attended = layerNorm(
    e,
    e.g.op('Add', [attention(e, x, maskBias, `${prefix}.attention`), x]),
    `${prefix}.attention.ln`,
  );
  const inner = gelu(e.g, dense(e, attended, `${prefix}.intermediate`, [hidden, intermediate]));
  const out = dense(e, inner, `${prefix}.output`, [intermediate, hidden]);
  return layerNorm(e, e.g.op('Add', [out, attended]), `${prefix}.output.ln`);
}

function wordEmbeddings(e: Encoder): string {
  const { g } = e;
  const dims = [e.options.shape.vocabSize, e.options.shape.hidden];
  if (!e.options.quantized) {
    return g.op('Gather', [g.weight('word_emb', dims, WEIGHT_SCALE), 'input_ids'], { axis: 0 });
  }
  const rows = g.op('Gather', [g.int8Weight('word_emb_quantized', dims), 'input_ids'], { axis: 0 });
  return g.op('DequantizeLinear', [rows, g.floatConstant([WEIGHT_SCALE / 254]), g.int8Constant([0])]);
}

/** BERT: Range(0, seq_len). XLM-R: cumsum(mask)·mask + padding id, so padding keeps the padding position. */
function positionIds(e: Encoder): string {
  const { g } = e;
  if (e.options.family === 'bert') {
    const seqLen = g.op('Gather', [g.op('Shape', ['input_ids']), g.int64Constant([1], [])], { axis: 0 });
    return g.op('Range', [g.int64Constant([0], []), seqLen, g.int64Constant([1], [])]);
  }
  const counted = g.op('CumSum', ['attention_mask', g.int64Constant([1], [])]);
  const masked = g.op('Mul', [counted, 'attention_mask']);
  return g.op('Add', [masked, g.int64Constant([XLMR_PADDING_ID], [])]);
}

/** Word + position + token-type embeddings, then LayerNorm (XLM-R has one token type and no input for it). */
function embeddings(e: Encoder): string {
  const { g } = e;
  const { hidden: h, maxPositions } = e.options.shape;
  const words = wordEmbeddings(e);
  const positions = positionIds(e);
  const pos = g.op('Gather', [g.weight('pos_emb', [maxPositions, h], WEIGHT_SCALE), positions], { axis: 0 });
  const types =
    e.options.family === 'bert'
      ? g.op('Gather', [g.weight('type_emb', [2, h], WEIGHT_SCALE), 'token_type_ids'], { axis: 0 })
      : g.weight('type_emb', [h], WEIGHT_SCALE);
  return layerNorm(e, g.op('Add', [g.op('Add', [words, pos]), types]), 'embeddings.ln');
}

/** attention_mask [B,S] → additive bias [B,1,1,S]: 0 where attended, -10000 on padding. */
function attentionBias(g: GraphBuilder): string {
  const mask = g.op('Cast', ['attention_mask'], { to: FLOAT_TYPE });
  const inverted = g.op('Sub', [g.floatConstant([1]), mask]);
  const bias = g.op('Mul', [inverted, g.floatConstant([-10000])]);
  return g.op('Unsqueeze', [bias, g.int64Constant([1, 2])]);
}

/**
 * Pairs (query token, passage token) of equal non-special tokens, [B, 1]; the passage is what follows the first
 * `</s>`. A query and a passage that share words count more than ones that share none, so a cross-encoder built
 * on it ranks an easy case the way a trained one does.
 */
function sharedTokenPairs(g: GraphBuilder): string {
  const toFloat = (x: string) => g.op('Cast', [x], { to: FLOAT_TYPE });
  const column = (x: string) => g.op('Unsqueeze', [x, g.int64Constant([2])]);
  const row = (x: string) => g.op('Unsqueeze', [x, g.int64Constant([1])]);
  const equal = toFloat(g.op('Equal', [column('input_ids'), row('input_ids')]));
  const special = g.int64Constant([LAST_SPECIAL_ID], []);
  const content = g.op('Mul', [toFloat(g.op('Greater', ['input_ids', special])), toFloat('attention_mask')]);
  const separators = g.op('Cast', [g.op('Equal', ['input_ids', g.int64Constant([XLMR_SEPARATOR_ID], [])])], {
    to: INT64_TYPE,
  });
  const seen = g.op('CumSum', [separators, g.int64Constant([1], [])]);
  const inPassage = toFloat(g.op('Greater', [seen, g.int64Constant([0], [])]));
  const inQuery = g.op('Sub', [g.floatConstant([1]), inPassage]);
  const pairMask = g.op('Mul', [
    column(g.op('Mul', [content, inQuery])),
    row(g.op('Mul', [content, inPassage])),
  ]);
  const shared = g.op('ReduceSum', [g.op('Mul', [equal, pairMask]), g.int64Constant([1, 2])], {
    keepdims: 0,
  });
  return g.op('Unsqueeze', [shared, g.int64Constant([1])]);
}

/**
 * The sequence-classification head on the first token: BERT's pooler (dense + tanh) then the classifier,
 * XLM-R's classification head (dense + tanh + out_proj) plus the shared-token count, less 1.5 so a pair with
 * nothing in common scores below one with a shared word or two.
 */
function classificationHead(e: Encoder, x: string): string {
  const { g } = e;
  const h = e.options.shape.hidden;
  const first = g.op('Gather', [x, g.int64Constant([0], [])], { axis: 1 });
  const pooled = g.op('Tanh', [dense(e, first, 'pooler', [h, h])]);
  const logit = dense(e, pooled, 'classifier', [h, 1]);
  if (e.options.family === 'bert') return logit;
  const overlap = g.op('Sub', [sharedTokenPairs(g), g.floatConstant([1.5])]);
  return g.op('Add', [logit, overlap]);
}

function graphName(options: EncoderGraphOptions): string {
  const family = options.family === 'bert' ? 'minilm' : 'xlmr';
  return `${family}_${options.kind}${options.quantized ? '_q8' : ''}`;
}

/** Build the graph (serialise it with `encode` or `encodeWithExternalData` and encoderEncodeOptions). */
export function buildEncoderGraph(options: EncoderGraphOptions): GraphBuilder {
  const g = new GraphBuilder(options.seed);
  const e: Encoder = { g, options };
  const maskBias = attentionBias(g);
  let x = embeddings(e);
  for (let i = 0; i < options.shape.layers; i++) x = encoderLayer(e, x, maskBias, i);
  if (options.kind === 'embed') g.op('Identity', [x], {}, 'last_hidden_state');
  else g.op('Identity', [classificationHead(e, x)], {}, 'logits');
  return g;
}

/** What `GraphBuilder.encode` needs besides the nodes: the graph's name, inputs and output. */
export function encoderEncodeOptions(options: EncoderGraphOptions) {
  const inputs = options.family === 'bert' ? BERT_INPUTS : XLMR_INPUTS;
  const name = graphName(options);
  if (options.kind === 'embed') {
    return {
      name,
      inputs,
      output: 'last_hidden_state',
      outputDims: ['batch_size', 'sequence_length', options.shape.hidden],
    };
  }
  return { name, inputs, output: 'logits', outputDims: ['batch_size', 1] };
}

export function encodeEncoderGraph(options: EncoderGraphOptions): OnnxModelBytes {
  return buildEncoderGraph(options).encode(encoderEncodeOptions(options));
}
