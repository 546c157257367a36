// Encoding a small WebAssembly module by hand: LEB128 numbers, sections, the opcodes the vector kernels use, and
// a module of i32-parameter functions over one imported memory. Enough for the kernels, nothing general.

/** Unsigned LEB128. */
export function uleb(value: number): number[] {
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

/** Signed LEB128 (i32 constants). */
export function sleb(value: number): number[] {
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
const F32 = 0x7d;
const V128 = 0x7b;
const simd = (code: number) => [0xfd, ...uleb(code)];

/** Instructions by name; local indices count the parameters first. */
export const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, depth],
  brIf: (depth: number) => [0x0d, depth],
  select: [0x1b],
  get: (local: number) => [0x20, local],
  set: (local: number) => [0x21, local],
  tee: (local: number) => [0x22, local],
  i32: (value: number) => [0x41, ...sleb(value)],
  f32: (value: number) => {
    const bytes = new Uint8Array(new Float32Array([value]).buffer);
    return [0x43, ...bytes];
  },
  i32Add: [0x6a],
  i32Mul: [0x6c],
  i32Shl: [0x74],
  i32LtU: [0x49],
  i32GeU: [0x4f],
  i32Store: [0x36, 2, 0],
  f32Store: [0x38, 2, 0],
  f32Gt: [0x5e],
  f32Div: [0x95],
  f32Max: [0x97],
  v128Load: (offset: number) => [...simd(0x00), 4, ...uleb(offset)],
  v128Store: (offset: number) => [...simd(0x0b), 4, ...uleb(offset)],
  v128Zero: [...simd(0x0c), ...new Array<number>(16).fill(0)],
  f32x4Splat: simd(0x13),
  i32x4ExtractLane: (lane: number) => [...simd(0x1b), lane],
  f32x4ExtractLane: (lane: number) => [...simd(0x1f), lane],
  i8x16NarrowI16x8S: simd(0x65),
  f32x4Nearest: simd(0x6a),
  i32x4ExtaddPairwiseI16x8S: simd(0x7e),
  i16x8NarrowI32x4S: simd(0x85),
  i16x8Add: simd(0x8e),
  i16x8ExtmulLowI8x16S: simd(0x9c),
  i16x8ExtmulHighI8x16S: simd(0x9d),
  i32x4Add: simd(0xae),
  f32x4Abs: simd(0xe0),
  f32x4Mul: simd(0xe6),
  f32x4Max: simd(0xe9),
  i32x4TruncSatF32x4S: simd(0xf8),
};

export interface WasmFunction {
  /** Export name. */
  name: string;
  /** Number of i32 parameters (pointers and counts); the function returns nothing. */
  params: number;
  locals: { i32?: number; f32?: number; v128?: number };
  /** Instructions, without the final `end`. Locals are numbered params, then i32, f32, v128. */
  code: number[];
}

/** A module importing `env.memory` and exporting `functions`. */
export function assembleModule(functions: readonly WasmFunction[]): Uint8Array {
  const types = functions.map((f) => [0x60, ...vector(Array.from({ length: f.params }, () => [I32])), 0]);
  const memoryImport = [...name('env'), ...name('memory'), 0x02, 0x00, ...uleb(1)];
  const bodies = functions.map((f) => {
    const groups: number[][] = [];
    if (f.locals.i32) groups.push([...uleb(f.locals.i32), I32]);
    if (f.locals.f32) groups.push([...uleb(f.locals.f32), F32]);
    if (f.locals.v128) groups.push([...uleb(f.locals.v128), V128]);
    const body = [...vector(groups), ...f.code, ...op.end];
    return [...uleb(body.length), ...body];
  });
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector(types)),
    ...section(2, vector([memoryImport])),
    ...section(3, vector(functions.map((_, i) => uleb(i)))),
    ...section(7, vector(functions.map((f, i) => [...name(f.name), 0x00, ...uleb(i)]))),
    ...section(10, vector(bodies)),
  ]);
}
