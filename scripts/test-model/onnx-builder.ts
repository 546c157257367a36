// A small ONNX graph builder over onnx-proto: seeded random weights, constants and auto-named nodes, serialised
// as one file or as a graph plus an external-data file. Test models are generated, never downloaded, so the
// weights only need to be deterministic, not meaningful.

import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

export type OnnxModelBytes = Uint8Array;
type AttributeValue = number | number[] | { float: number };

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;
const INT8 = onnx.TensorProto.DataType.INT8;
/** Initializers at least this large go to the external-data file (the ONNX tools' default threshold). */
const EXTERNAL_MIN_BYTES = 1024;
/** Each tensor in the external-data file starts on this boundary, so a reader may map it page-aligned. */
const EXTERNAL_ALIGN = 4096;

/** The graph inputs of a BERT export; XLM-RoBERTa exports have no `token_type_ids`. */
export const BERT_INPUTS = ['input_ids', 'attention_mask', 'token_type_ids'] as const;
export const XLMR_INPUTS = ['input_ids', 'attention_mask'] as const;

export interface EncodeOptions {
  name: string;
  output: string;
  outputDims: Array<number | string>;
  /** int64 [batch_size, sequence_length] graph inputs. Default BERT_INPUTS. */
  inputs?: readonly string[];
}

export interface SplitModel {
  /** The graph, its large initializers pointing into `data`. */
  model: OnnxModelBytes;
  data: Uint8Array;
}

/** A linear congruential generator: the same seed gives the same model bytes on every machine. */
export function createSeededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296 - 0.5;
  };
}

function toAttribute(name: string, value: AttributeValue): onnxProto.onnx.IAttributeProto {
  const types = onnx.AttributeProto.AttributeType;
  if (Array.isArray(value)) return { name, type: types.INTS, ints: value };
  if (typeof value === 'object') return { name, type: types.FLOAT, f: value.float };
  return { name, type: types.INT, i: value };
}

function toValueInfo(name: string, elemType: number, dims: Array<number | string>) {
  const dim = dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d }));
  return onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType, shape: { dim } } } });
}

function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/** Collects nodes and initializers; every `op` returns the name of its (single) output. */
export class GraphBuilder {
  private readonly nodes: onnxProto.onnx.INodeProto[] = [];
  private readonly initializers: onnxProto.onnx.ITensorProto[] = [];
  private readonly random: () => number;
  private counter = 0;

  constructor(seed: number) {
    this.random = createSeededRandom(seed);
  }

  /** A float tensor of uniform values in [-scale/2, scale/2]. */
  weight(name: string, dims: number[], scale: number): string {
    const values = new Float32Array(dims.reduce((a, b) => a * b, 1));
    for (let i = 0; i < values.length; i++) values[i] = this.random() * scale;
    return this.addTensor(name, dims, FLOAT, bytesOf(values));
  }

  /** An int8 tensor of uniform values in [-127, 127] (the weights of a dynamically quantized model). */
  int8Weight(name: string, dims: number[]): string {
    const values = new Int8Array(dims.reduce((a, b) => a * b, 1));
    for (let i = 0; i < values.length; i++) values[i] = Math.round(this.random() * 254);
    return this.addTensor(name, dims, INT8, bytesOf(values));
  }

  /** A float tensor filled with one value (LayerNorm gains and biases). */
  filled(name: string, dims: number[], value: number): string {
    const count = dims.reduce((a, b) => a * b, 1);
    return this.addTensor(name, dims, FLOAT, bytesOf(new Float32Array(count).fill(value)));
  }

  floatConstant(values: number[], dims: number[] = []): string {
    return this.addTensor(this.nextName('cf'), dims, FLOAT, bytesOf(Float32Array.from(values)));
  }

  int8Constant(values: number[], dims: number[] = []): string {
    return this.addTensor(this.nextName('cb'), dims, INT8, bytesOf(Int8Array.from(values)));
  }

  int64Constant(values: number[], dims: number[] = [values.length]): string {
    const raw = BigInt64Array.from(values.map((v) => BigInt(v)));
    return this.addTensor(this.nextName('ci'), dims, INT64, bytesOf(raw));
  }

  op(
    opType: string,
    inputs: string[],
    attributes: Record<string, AttributeValue> = {},
    output?: string,
  ): string {
    const out = output ?? this.nextName(opType.toLowerCase());
    this.addNode(opType, inputs, [out], attributes);
    return out;
  }

  /** A node with several outputs (DynamicQuantizeLinear); returns their names in order. */
  opOutputs(opType: string, inputs: string[], count: number): string[] {
    const outputs = Array.from({ length: count }, () => this.nextName(opType.toLowerCase()));
    this.addNode(opType, inputs, outputs, {});
    return outputs;
  }

  /** Serialise the graph as one self-contained file. */
  encode(options: EncodeOptions): OnnxModelBytes {
    return onnx.ModelProto.encode(this.modelProto(options, this.initializers)).finish();
  }

  /**
   * Serialise with every large initializer in a separate data file named `location` (relative to the model
   * file, as onnxruntime resolves it), the layout of models too big for one protobuf.
   */
  encodeWithExternalData(options: EncodeOptions, location: string): SplitModel {
    const chunks: Uint8Array[] = [];
    let offset = 0;
    const initializers = this.initializers.map((tensor) => {
      const raw = tensor.rawData as Uint8Array;
      if (raw.byteLength < EXTERNAL_MIN_BYTES) return tensor;
      const start = Math.ceil(offset / EXTERNAL_ALIGN) * EXTERNAL_ALIGN;
      if (start > offset) chunks.push(new Uint8Array(start - offset));
      chunks.push(raw);
      offset = start + raw.byteLength;
      return onnx.TensorProto.create({
        name: tensor.name,
        dims: tensor.dims,
        dataType: tensor.dataType,
        dataLocation: onnx.TensorProto.DataLocation.EXTERNAL,
        externalData: [
          { key: 'location', value: location },
          { key: 'offset', value: String(start) },
          { key: 'length', value: String(raw.byteLength) },
        ],
      });
    });
    const model = onnx.ModelProto.encode(this.modelProto(options, initializers)).finish();
    return { model, data: Buffer.concat(chunks) };
  }

  private modelProto(options: EncodeOptions, initializer: onnxProto.onnx.ITensorProto[]) {
    const input = (options.inputs ?? BERT_INPUTS).map((n) =>
      toValueInfo(n, INT64, ['batch_size', 'sequence_length']),
    );
    const graph = onnx.GraphProto.create({
      name: options.name,
      node: this.nodes,
      initializer,
      input,
      output: [toValueInfo(options.output, FLOAT, options.outputDims)],
    });
    return onnx.ModelProto.create({
      irVersion: 8,
      producerName: 'groove-test-models',
      opsetImport: [{ domain: '', version: 17 }],
      graph,
    });
  }

  private addNode(
    opType: string,
    inputs: string[],
    outputs: string[],
    attributes: Record<string, AttributeValue>,
  ): void {
    this.nodes.push(
      onnx.NodeProto.create({
        opType,
        input: inputs,
        output: outputs,
        name: `${outputs[0]}_${opType}`,
        attribute: Object.entries(attributes).map(([k, v]) => toAttribute(k, v)),
      }),
    );
  }

  private addTensor(name: string, dims: number[], dataType: number, rawData: Uint8Array): string {
    this.initializers.push(onnx.TensorProto.create({ name, dims, dataType, rawData }));
    return name;
  }

  private nextName(prefix: string): string {
    this.counter += 1;
    return `${prefix}_${this.counter}`;
  }
}
