// A small ONNX graph builder over onnx-proto: seeded random weights, constants and auto-named nodes.
// Test models are generated, never downloaded, so the weights only need to be deterministic, not meaningful.

import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

export type OnnxModelBytes = Uint8Array;
type AttributeValue = number | number[] | { float: number };

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

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
    const count = dims.reduce((a, b) => a * b, 1);
    const values = new Float32Array(count);
    for (let i = 0; i < count; i++) values[i] = this.random() * scale;
    return this.addFloat(name, dims, values);
  }

  /** A float tensor filled with one value (LayerNorm gains and biases). */
  filled(name: string, dims: number[], value: number): string {
    const count = dims.reduce((a, b) => a * b, 1);
    return this.addFloat(name, dims, new Float32Array(count).fill(value));
  }

  floatConstant(values: number[], dims: number[] = []): string {
    return this.addFloat(this.nextName('cf'), dims, Float32Array.from(values));
  }

  int64Constant(values: number[], dims: number[] = [values.length]): string {
    const name = this.nextName('ci');
    const raw = BigInt64Array.from(values.map((v) => BigInt(v)));
    const bytes = new Uint8Array(raw.buffer);
    this.initializers.push(onnx.TensorProto.create({ name, dims, dataType: INT64, rawData: bytes }));
    return name;
  }

  op(
    opType: string,
    inputs: string[],
    attributes: Record<string, AttributeValue> = {},
    output?: string,
  ): string {
    const out = output ?? this.nextName(opType.toLowerCase());
    this.nodes.push(
      onnx.NodeProto.create({
        opType,
        input: inputs,
        output: [out],
        name: `${out}_${opType}`,
        attribute: Object.entries(attributes).map(([k, v]) => toAttribute(k, v)),
      }),
    );
    return out;
  }

  /** Serialise the graph with the three BERT inputs and one named float output. */
  encode(options: { name: string; output: string; outputDims: Array<number | string> }): OnnxModelBytes {
    const inputs = ['input_ids', 'attention_mask', 'token_type_ids'].map((n) =>
      toValueInfo(n, INT64, ['batch_size', 'sequence_length']),
    );
    const graph = onnx.GraphProto.create({
      name: options.name,
      node: this.nodes,
      initializer: this.initializers,
      input: inputs,
      output: [toValueInfo(options.output, FLOAT, options.outputDims)],
    });
    const model = onnx.ModelProto.create({
      irVersion: 8,
      producerName: 'groove-test-models',
      opsetImport: [{ domain: '', version: 17 }],
      graph,
    });
    return onnx.ModelProto.encode(model).finish();
  }

  private addFloat(name: string, dims: number[], values: Float32Array): string {
    const rawData = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    this.initializers.push(onnx.TensorProto.create({ name, dims, dataType: FLOAT, rawData }));
    return name;
  }

  private nextName(prefix: string): string {
    this.counter += 1;
    return `${prefix}_${this.counter}`;
  }
}
