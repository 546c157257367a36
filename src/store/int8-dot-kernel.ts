// WebAssembly SIMD kernels for the vector index's first pass: quantise every float32 row to int8 codes with a
// per-row scale, and score all codes against an int8 query in one call. Assembled by hand (wasm-encoding.ts).
import { assembleModule, op, type WasmFunction } from './wasm-encoding.js';

/** Bytes per row are padded to a multiple of this (two 16-lane blocks per inner-loop turn). */
const ROW_ALIGN = 32;
const WASM_PAGE_BYTES = 65536;
/** Rows copied into the module per quantise call (1.5 MB of float32 at 384 dimensions). */
const STAGING_ROWS = 1024;

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

type KernelCall = (a: number, b: number, c: number, d: number, e: number) => void;

/** The int8 pass over a fixed number of rows; codes, scales, query and scores live in the module's memory. */
export interface Int8DotKernel {
  readonly rows: number;
  /** Bytes per row (the dimension rounded up to 32; the padding stays zero). */
  readonly stride: number;
  /** Row-major codes, `rows × stride`, values in [-127, 127]: written by `quantise` (or directly). */
  readonly codes: Int8Array;
  /** Per row: max |component| / 127, so similarity ≈ score · scale · query scale (0 for a zero or bad row). */
  readonly scales: Float32Array;
  /** The query codes, `stride` long, values in [-127, 127]. */
  readonly query: Int8Array;
  /** Written by `run`: `scores[r]` = Σ codes[r][i] · query[i]. */
  readonly scores: Int32Array;
  /** Bytes of the module's memory (codes, scores, scales, query and staging). */
  readonly memoryBytes: number;
  /** Score rows 0 … `count` − 1 (default all). */
  run(count?: number): void;
  /**
   * Fill the codes and scales of rows `firstRow` … from `matrix` (row-major float32, `dimension` per row; as many
   * rows as it holds, default all `rows` from 0).
   */
  quantise(matrix: Float32Array, dimension: number, firstRow?: number): void;
}

/** Bytes per row a kernel holds: the codes, the score and the scale. */
export function int8RowBytes(dimension: number): number {
  return strideOf(dimension) + 8;
}

/** Bytes a kernel holds whatever its rows: the query and the staging buffer (rounded to whole pages). */
export function int8FixedBytes(dimension: number): number {
  return strideOf(dimension) + STAGING_ROWS * strideOf(dimension) * 4 + WASM_PAGE_BYTES;
}

function strideOf(dimension: number): number {
  return Math.ceil(dimension / ROW_ALIGN) * ROW_ALIGN;
}

/**
 * Build the kernels for `rows` vectors of `dimension` components, or null when this runtime has no WebAssembly
 * SIMD or cannot reserve the memory (callers then keep to the exact scalar scan).
 */
export function createInt8DotKernel(rows: number, dimension: number): Int8DotKernel | null {
  if (typeof WebAssembly === 'undefined') return null;
  const stride = strideOf(dimension);
  const align = (bytes: number) => Math.ceil(bytes / ROW_ALIGN) * ROW_ALIGN;
  const scoresAt = stride;
  const scalesAt = scoresAt + align(rows * 4);
  const stagingAt = scalesAt + align(rows * 4);
  const codesAt = stagingAt + STAGING_ROWS * stride * 4;
  let exports: Record<string, unknown>;
  let memory: { readonly buffer: ArrayBuffer };
  try {
    memory = new WebAssembly.Memory({ initial: Math.ceil((codesAt + rows * stride) / WASM_PAGE_BYTES) });
    const module = new WebAssembly.Module(assembleModule([dotRows(), quantiseRows()]));
    exports = new WebAssembly.Instance(module, { env: { memory } }).exports;
  } catch {
    return null; // no SIMD support, or the memory could not be reserved
  }
  const dot = exports.dotRows as KernelCall;
  const quantise = exports.quantiseRows as KernelCall;
  const buffer = memory.buffer;
  const staging = new Float32Array(buffer, stagingAt, STAGING_ROWS * stride);
  const scales = new Float32Array(buffer, scalesAt, rows);
  return {
    rows,
    stride,
    codes: new Int8Array(buffer, codesAt, rows * stride),
    scales,
    query: new Int8Array(buffer, 0, stride),
    scores: new Int32Array(buffer, scoresAt, rows),
    memoryBytes: buffer.byteLength,
    run: (count = rows) => dot(0, codesAt, Math.min(count, rows), stride, scoresAt),
    quantise: (matrix, dim, firstRow = 0) => {
      const end = firstRow + Math.floor(matrix.length / dim);
      for (let start = firstRow; start < end; start += STAGING_ROWS) {
        const count = Math.min(STAGING_ROWS, end - start);
        const from = (start - firstRow) * dim;
        if (dim === stride) staging.set(matrix.subarray(from, from + count * dim));
        else {
          staging.fill(0);
          for (let r = 0; r < count; r++)
            staging.set(matrix.subarray(from + r * dim, from + (r + 1) * dim), r * stride);
        }
        quantise(stagingAt, count, stride, codesAt + start * stride, scalesAt + start * 4);
      }
      // A row holding NaN or ±Infinity got all-zero codes; give it scale 0 so it scores 0, never NaN.
      for (let r = firstRow; r < end; r++) if (!Number.isFinite(scales[r]!)) scales[r] = 0;
    },
  };
}

/**
 * dotRows(query, codes, rows, stride, out): per row, 16 lanes at a time, multiply int8 pairs into int16
 * (|a·b| ≤ 127², so the low and high halves summed still fit int16), widen pairwise into four int32 sums, and
 * store their total. Locals: 5 row, 6 p, 7 end, 8 q, 9 acc, 10 a, 11 b.
 */
function dotRows(): WasmFunction {
  const [QUERY, CODES, ROWS, STRIDE, OUT, ROW, P, END, Q, ACC, A, B] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
  const block16 = (offset: number) => [
    ...[
      ...op.get(P),
      ...op.v128Load(offset),
      ...op.set(A),
      ...op.get(Q),
      ...op.v128Load(offset),
      ...op.set(B),
    ],
    ...[...op.get(ACC), ...op.get(A), ...op.get(B), ...op.i16x8ExtmulLowI8x16S],
    ...[...op.get(A), ...op.get(B), ...op.i16x8ExtmulHighI8x16S, ...op.i16x8Add],
    ...[...op.i32x4ExtaddPairwiseI16x8S, ...op.i32x4Add, ...op.set(ACC)],
  ];
  const lane = (i: number) => [...op.get(ACC), ...op.i32x4ExtractLane(i)];
  return {
    name: 'dotRows',
    params: 5,
    locals: { i32: 4, v128: 3 },
    code: [
      ...[...op.i32(0), ...op.set(ROW), ...op.block, ...op.loop],
      ...[...op.get(ROW), ...op.get(ROWS), ...op.i32GeU, ...op.brIf(1), ...op.v128Zero, ...op.set(ACC)],
      ...[...op.get(CODES), ...op.get(ROW), ...op.get(STRIDE), ...op.i32Mul, ...op.i32Add, ...op.tee(P)],
      ...[...op.get(STRIDE), ...op.i32Add, ...op.set(END), ...op.get(QUERY), ...op.set(Q)],
      ...[...op.loop, ...block16(0), ...block16(16)],
      ...[...op.get(P), ...op.i32(32), ...op.i32Add, ...op.set(P)],
      ...[...op.get(Q), ...op.i32(32), ...op.i32Add, ...op.set(Q)],
      ...[...op.get(P), ...op.get(END), ...op.i32LtU, ...op.brIf(0), ...op.end],
      ...[...op.get(OUT), ...op.get(ROW), ...op.i32(2), ...op.i32Shl, ...op.i32Add],
      ...[...lane(0), ...lane(1), ...op.i32Add, ...lane(2), ...op.i32Add, ...lane(3), ...op.i32Add],
      ...op.i32Store,
      ...[...op.get(ROW), ...op.i32(1), ...op.i32Add, ...op.set(ROW), ...op.br(0), ...op.end, ...op.end],
    ],
  };
}

/**
 * quantiseRows(source, rows, stride, codes, scales): per row of `stride` float32, find max |x| (4 lanes), store
 * max/127 as the row's scale, then write round(x · 127/max) as int8, 16 at a time (f32 → i32 → i16 → i8, each
 * narrowing saturating; a zero or non-finite max writes zeros). Locals: 5 row, 6 p, 7 end, 8 q, 9 max (f32),
 * 10 acc, 11 factor (v128).
 */
function quantiseRows(): WasmFunction {
  const [SOURCE, ROWS, STRIDE, CODES, SCALES, ROW, P, END, Q, MAX, ACC, FACTOR] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
  ];
  const toI32 = (offset: number) => [
    ...[...op.get(P), ...op.v128Load(offset), ...op.get(FACTOR), ...op.f32x4Mul],
    ...[...op.f32x4Nearest, ...op.i32x4TruncSatF32x4S],
  ];
  const lane = (i: number) => [...op.get(ACC), ...op.f32x4ExtractLane(i)];
  const rowStart = [
    ...op.get(SOURCE),
    ...op.get(ROW),
    ...op.get(STRIDE),
    ...op.i32Mul,
    ...op.i32(2),
    ...op.i32Shl,
  ];
  return {
    name: 'quantiseRows',
    params: 5,
    locals: { i32: 4, f32: 1, v128: 2 },
    code: [
      ...[...op.i32(0), ...op.set(ROW), ...op.block, ...op.loop],
      ...[...op.get(ROW), ...op.get(ROWS), ...op.i32GeU, ...op.brIf(1), ...op.v128Zero, ...op.set(ACC)],
      ...[
        ...rowStart,
        ...op.i32Add,
        ...op.tee(P),
        ...op.get(STRIDE),
        ...op.i32(2),
        ...op.i32Shl,
        ...op.i32Add,
      ],
      ...op.set(END),
      // max |x| over the row
      ...[
        ...op.loop,
        ...op.get(ACC),
        ...op.get(P),
        ...op.v128Load(0),
        ...op.f32x4Abs,
        ...op.f32x4Max,
        ...op.set(ACC),
      ],
      ...[
        ...op.get(P),
        ...op.i32(16),
        ...op.i32Add,
        ...op.tee(P),
        ...op.get(END),
        ...op.i32LtU,
        ...op.brIf(0),
      ],
      ...op.end,
      ...[
        ...lane(0),
        ...lane(1),
        ...op.f32Max,
        ...lane(2),
        ...op.f32Max,
        ...lane(3),
        ...op.f32Max,
        ...op.set(MAX),
      ],
      // scales[row] = max / 127
      ...[...op.get(SCALES), ...op.get(ROW), ...op.i32(2), ...op.i32Shl, ...op.i32Add],
      ...[...op.get(MAX), ...op.f32(127), ...op.f32Div, ...op.f32Store],
      // factor = max > 0 ? 127 / max : 0 (NaN compares false)
      ...[
        ...op.f32(127),
        ...op.get(MAX),
        ...op.f32Div,
        ...op.f32(0),
        ...op.get(MAX),
        ...op.f32(0),
        ...op.f32Gt,
      ],
      ...[...op.select, ...op.f32x4Splat, ...op.set(FACTOR)],
      // codes
      ...[...rowStart, ...op.i32Add, ...op.set(P)],
      ...[...op.get(CODES), ...op.get(ROW), ...op.get(STRIDE), ...op.i32Mul, ...op.i32Add, ...op.set(Q)],
      ...[...op.loop, ...op.get(Q)],
      ...[
        ...toI32(0),
        ...toI32(16),
        ...op.i16x8NarrowI32x4S,
        ...toI32(32),
        ...toI32(48),
        ...op.i16x8NarrowI32x4S,
      ],
      ...[...op.i8x16NarrowI16x8S, ...op.v128Store(0)],
      ...[...op.get(Q), ...op.i32(16), ...op.i32Add, ...op.set(Q)],
      ...[
        ...op.get(P),
        ...op.i32(64),
        ...op.i32Add,
        ...op.tee(P),
        ...op.get(END),
        ...op.i32LtU,
        ...op.brIf(0),
      ],
      ...op.end,
      ...[...op.get(ROW), ...op.i32(1), ...op.i32Add, ...op.set(ROW), ...op.br(0), ...op.end, ...op.end],
    ],
  };
}
