// A WebAssembly SIMD kernel that scores every int8-quantised vector against an int8 query in one call: the fast
// first pass of the vector index. The module is assembled here byte by byte (no toolchain, no binary blob).

/** Bytes per row are padded to a multiple of this (two 16-lane blocks per inner-loop turn). */
const ROW_ALIGN = 32;
const WASM_PAGE_BYTES = 65536;

/** The slice of the WebAssembly API used here: Node has it, but its types live in lib.dom, which we do not load. */
interface WasmApi {
  Memory: new (descriptor: { initial: number }) => { readonly buffer: ArrayBuffer };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (
    module: object,
    imports: Record<string, Record<string, unknown>>,
  ) => { exports: Record<string, unknown> };
}
declare const WebAssembly: WasmApi | undefined;

/** The int8 scoring pass over a fixed number of rows; codes and query live in the module's memory. */
export interface Int8DotKernel {
  readonly rows: number;
  /** Bytes per row (the dimension rounded up to 32; the padding stays zero). */
  readonly stride: number;
  /** Row-major codes, `rows × stride`; fill them once, values in [-127, 127]. */
  readonly codes: Int8Array;
  /** The query codes, `stride` long, values in [-127, 127]. */
  readonly query: Int8Array;
  /** Written by `run`: `scores[r]` = Σ codes[r][i] · query[i]. */
  readonly scores: Int32Array;
  run(): void;
}

/**
 * Build the kernel for `rows` vectors of `dimension` components, or null when this runtime has no WebAssembly
 * SIMD (callers then fall back to the exact scalar scan).
 */
export function createInt8DotKernel(rows: number, dimension: number): Int8DotKernel | null {
  if (typeof WebAssembly === 'undefined') return null;
  const stride = Math.ceil(dimension / ROW_ALIGN) * ROW_ALIGN;
  const scoresOffset = stride;
  const codesOffset = scoresOffset + Math.ceil((rows * 4) / ROW_ALIGN) * ROW_ALIGN;
  const totalBytes = codesOffset + rows * stride;
  let run: (query: number, codes: number, rows: number, stride: number, out: number) => void;
  let memory: { readonly buffer: ArrayBuffer };
  try {
    memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(totalBytes / WASM_PAGE_BYTES)) });
    const module = new WebAssembly.Module(assembleModule());
    const instance = new WebAssembly.Instance(module, { env: { memory } });
    run = instance.exports.dotRows as typeof run;
  } catch {
    return null; // no SIMD support, or the memory could not be reserved
  }
  const buffer = memory.buffer;
  return {
    rows,
    stride,
    codes: new Int8Array(buffer, codesOffset, rows * stride),
    query: new Int8Array(buffer, 0, stride),
    scores: new Int32Array(buffer, scoresOffset, rows),
    run: () => run(0, codesOffset, rows, stride, scoresOffset),
  };
}

// --- the module ------------------------------------------------------------------------------------------

function uleb(value: number): number[] {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

function sleb(value: number): number[] {
  const out: number[] = [];
  let v = value | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

const name = (text: string) => [...uleb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))];
const vector = (items: number[][]) => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];

const I32 = 0x7f;
const V128 = 0x7b;
const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, depth],
  brIf: (depth: number) => [0x0d, depth],
  get: (local: number) => [0x20, local],
  set: (local: number) => [0x21, local],
  tee: (local: number) => [0x22, local],
  i32: (value: number) => [0x41, ...sleb(value)],
  i32Add: [0x6a],
  i32Mul: [0x6c],
  i32Shl: [0x74],
  i32LtU: [0x49],
  i32GeU: [0x4f],
  i32Store: [0x36, 2, 0],
  simd: (code: number) => [0xfd, ...uleb(code)],
};
const v128Load = (offset: number) => [...op.simd(0x00), 4, ...uleb(offset)];
const v128Zero = [...op.simd(0x0c), ...new Array<number>(16).fill(0)];
const extmulLowS = op.simd(0x9c); // i16x8.extmul_low_i8x16_s
const extmulHighS = op.simd(0x9d); // i16x8.extmul_high_i8x16_s
const i16x8Add = op.simd(0x8e);
const extaddPairwiseS = op.simd(0x7e); // i32x4.extadd_pairwise_i16x8_s
const i32x4Add = op.simd(0xae);
const laneOf = (lane: number) => [...op.simd(0x1b), lane]; // i32x4.extract_lane

/**
 * dotRows(query, codes, rows, stride, out): for each row, 16 lanes at a time, multiply int8 pairs into int16
 * (|a·b| ≤ 127², so the sum of the low and high halves fits int16), widen pairwise into four int32 sums, and
 * store their total. Params 0–4; locals 5 row, 6 p, 7 end, 8 q, 9 acc, 10 a, 11 b.
 */
function dotRowsBody(): number[] {
  const [QUERY, CODES, ROWS, STRIDE, OUT, ROW, P, END, Q, ACC, A, B] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
  const block16 = (offset: number) => [
    ...op.get(P),
    ...v128Load(offset),
    ...op.set(A),
    ...op.get(Q),
    ...v128Load(offset),
    ...op.set(B),
    ...op.get(ACC),
    ...op.get(A),
    ...op.get(B),
    ...extmulLowS,
    ...op.get(A),
    ...op.get(B),
    ...extmulHighS,
    ...i16x8Add,
    ...extaddPairwiseS,
    ...i32x4Add,
    ...op.set(ACC),
  ];
  const code = [
    ...op.i32(0),
    ...op.set(ROW),
    ...op.block,
    ...op.loop,
    ...[...op.get(ROW), ...op.get(ROWS), ...op.i32GeU, ...op.brIf(1)],
    ...[...v128Zero, ...op.set(ACC)],
    // p = codes + row * stride; end = p + stride; q = query
    ...[...op.get(CODES), ...op.get(ROW), ...op.get(STRIDE), ...op.i32Mul, ...op.i32Add, ...op.tee(P)],
    ...[...op.get(STRIDE), ...op.i32Add, ...op.set(END), ...op.get(QUERY), ...op.set(Q)],
    ...op.loop,
    ...block16(0),
    ...block16(16),
    ...[...op.get(P), ...op.i32(32), ...op.i32Add, ...op.set(P)],
    ...[...op.get(Q), ...op.i32(32), ...op.i32Add, ...op.set(Q)],
    ...[...op.get(P), ...op.get(END), ...op.i32LtU, ...op.brIf(0)],
    ...op.end,
    // out[row] = lane0 + lane1 + lane2 + lane3
    ...[...op.get(OUT), ...op.get(ROW), ...op.i32(2), ...op.i32Shl, ...op.i32Add],
    ...[...op.get(ACC), ...laneOf(0), ...op.get(ACC), ...laneOf(1), ...op.i32Add],
    ...[...op.get(ACC), ...laneOf(2), ...op.i32Add, ...op.get(ACC), ...laneOf(3), ...op.i32Add],
    ...op.i32Store,
    ...[...op.get(ROW), ...op.i32(1), ...op.i32Add, ...op.set(ROW), ...op.br(0)],
    ...op.end,
    ...op.end,
    ...op.end,
  ];
  const body = [
    ...vector([
      [...uleb(4), I32],
      [...uleb(3), V128],
    ]),
    ...code,
  ];
  return [...uleb(body.length), ...body];
}

function assembleModule(): Uint8Array {
  const signature = [0x60, ...vector([[I32], [I32], [I32], [I32], [I32]]), 0];
  const memoryImport = [...name('env'), ...name('memory'), 0x02, 0x00, ...uleb(1)];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([signature])),
    ...section(2, vector([memoryImport])),
    ...section(3, vector([[0]])),
    ...section(7, vector([[...name('dotRows'), 0x00, 0]])),
    ...section(10, vector([dotRowsBody()])),
  ]);
}
