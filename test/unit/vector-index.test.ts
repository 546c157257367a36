// The vector index against a naive oracle: the int8 SIMD kernel's dot products, exact search with every filter,
// and the int8 first pass + exact rescoring returning the same hits as exact search.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createInt8DotKernel } from '../../src/store/int8-dot-kernel.js';
import { type VectorEntry, type VectorHit, VectorIndex } from '../../src/store/vector-index.js';

/** Deterministic PRNG so failures reproduce. */
function randomOf(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

function unitVector(dim: number, random: () => number): Float32Array {
  const v = new Float32Array(dim);
  let norm = 0;
  for (let i = 0; i < dim; i++) {
    // Sum of uniforms: roughly Gaussian, so directions are spread over the sphere.
    v[i] = random() + random() + random() - 1.5;
    norm += v[i]! * v[i]!;
  }
  const inv = 1 / Math.sqrt(norm);
  for (let i = 0; i < dim; i++) v[i]! *= inv;
  return v;
}

function makeEntries(count: number, dim: number, seed: number): VectorEntry[] {
  const random = randomOf(seed);
  return Array.from({ length: count }, (_, i) => ({
    id: 1000 + i * 3,
    documentId: Math.floor(i / 7),
    quality: i % 11 === 0 ? 0.2 : 1,
    vector: unitVector(dim, random),
  }));
}

/** The oracle: score every entry in float64, filter, sort by similarity desc then id asc, cut to k. */
function naiveSearch(
  entries: VectorEntry[],
  query: Float32Array,
  options: { k: number; minQuality: number; documentIds: Set<number> | null; excluded: Set<number> },
): number[] {
  return entries
    .filter((e) => e.quality >= options.minQuality)
    .filter((e) => !options.documentIds || options.documentIds.has(e.documentId))
    .filter((e) => !options.excluded.has(e.id))
    .map((e) => ({ id: e.id, s: e.vector.reduce((sum, x, i) => sum + x * query[i]!, 0) }))
    .sort((a, b) => b.s - a.s || a.id - b.id)
    .slice(0, options.k)
    .map((h) => h.id);
}

const ids = (hits: VectorHit[]) => hits.map((h) => h.id);

describe('int8 dot kernel', () => {
  it('computes exact integer dot products for every row, including a dimension that needs padding', () => {
    for (const dim of [1, 31, 32, 33, 384]) {
      const rows = 37;
      const kernel = createInt8DotKernel(rows, dim);
      expect(kernel).not.toBeNull();
      const random = randomOf(dim);
      const code = () => Math.round(random() * 254) - 127;
      for (let r = 0; r < rows; r++)
        for (let i = 0; i < dim; i++) kernel!.codes[r * kernel!.stride + i] = code();
      for (let i = 0; i < dim; i++) kernel!.query[i] = code();
      // Extremes: both ±127 products at full length must not overflow the int16 lane sums.
      kernel!.codes.fill(127, 0, dim);
      kernel!.codes.fill(-127, kernel!.stride, kernel!.stride + dim);
      kernel!.run();
      for (let r = 0; r < rows; r++) {
        let expected = 0;
        for (let i = 0; i < dim; i++) expected += kernel!.codes[r * kernel!.stride + i]! * kernel!.query[i]!;
        expect(kernel!.scores[r]).toBe(expected);
      }
    }
  });
});

describe('int8 quantise kernel', () => {
  it('writes round(x·127/max|x|) per row with scale max/127, zero padding, and zeros for bad rows', () => {
    for (const dim of [7, 33, 384]) {
      const rows = 1500; // more than one staging batch
      const random = randomOf(dim + 1);
      const matrix = new Float32Array(rows * dim);
      for (let i = 0; i < matrix.length; i++) matrix[i] = (random() - 0.5) * (1 + (i % 5));
      matrix.fill(0, 3 * dim, 4 * dim); // a zero row
      matrix[5 * dim + 2] = Number.NaN; // a broken row
      matrix[6 * dim] = Number.POSITIVE_INFINITY;
      const kernel = createInt8DotKernel(rows, dim)!;
      kernel.quantise(matrix, dim);
      let exact = 0;
      let worst = 0;
      let badScales = 0;
      for (let r = 0; r < rows; r++) {
        const row = matrix.subarray(r * dim, (r + 1) * dim);
        const codes = kernel.codes.subarray(r * kernel.stride, (r + 1) * kernel.stride);
        expect(Array.from(codes.subarray(dim)).every((c) => c === 0)).toBe(true);
        if (r === 3 || r === 5 || r === 6) {
          expect(Array.from(codes).every((c) => c === 0)).toBe(true);
          expect(kernel.scales[r]).toBe(0);
          continue;
        }
        const max = row.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
        if (kernel.scales[r] !== Math.fround(max / 127)) badScales++;
        for (let i = 0; i < dim; i++) {
          const want = Math.round((row[i]! * 127) / max);
          worst = Math.max(worst, Math.abs(codes[i]! - want));
          if (codes[i] === want) exact++;
        }
      }
      expect(badScales).toBe(0);
      // float32 arithmetic may land the other side of a .5 tie than float64: never more than one step.
      expect(worst).toBeLessThanOrEqual(1);
      expect(exact / ((rows - 3) * dim)).toBeGreaterThan(0.999);
    }
  });
});

describe('VectorIndex.search', () => {
  const dim = 48;
  const entries = makeEntries(3000, dim, 7);
  const index = VectorIndex.fromEntries(entries, dim);

  it('builds the int8 codes with the snapshot (this runtime has SIMD)', () => {
    expect(index.quantised).toBe(true);
  });

  it('exact search equals the naive oracle under every filter combination', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 60 }),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (seed, k, useQuality, useDocuments, useExcluded) => {
          const random = randomOf(seed);
          const query = unitVector(dim, random);
          const options = {
            k,
            minQuality: useQuality ? 0.3 : 0,
            documentIds: useDocuments ? new Set(Array.from({ length: 80 }, (_, i) => i * 5)) : null,
            excluded: useExcluded ? new Set(entries.slice(0, 600).map((e) => e.id)) : new Set<number>(),
          };
          expect(ids(index.search(query, { ...options, exact: true }))).toEqual(
            naiveSearch(entries, query, options),
          );
        },
      ),
      { numRuns: 40 },
    );
  });

  it('the first pass with rescoring returns the exact top k, with exact similarities', () => {
    const random = randomOf(99);
    for (let q = 0; q < 30; q++) {
      const query = unitVector(dim, random);
      const options = { k: 10, minQuality: 0.3, documentIds: null, excluded: new Set([entries[5]!.id]) };
      const fast = index.search(query, options);
      const exact = index.search(query, { ...options, exact: true });
      expect(ids(fast)).toEqual(ids(exact));
      expect(fast.map((h) => h.similarity)).toEqual(exact.map((h) => h.similarity));
    }
  });

  it('a large document filter goes through the first pass and still honours the filter', () => {
    const allowed = new Set(Array.from({ length: 400 }, (_, i) => i)); // 2,800 rows: above the exact cut-off
    const random = randomOf(5);
    const query = unitVector(dim, random);
    const options = { k: 20, minQuality: 0, documentIds: allowed, excluded: new Set<number>() };
    expect(ids(index.search(query, options))).toEqual(naiveSearch(entries, query, options));
  });

  it('never lets excluded chunks take a slot, and returns fewer than k only when fewer qualify', () => {
    const query = entries[42]!.vector;
    const excluded = new Set(entries.map((e) => e.id).filter((_, i) => i !== 42 && i !== 43));
    const hits = index.search(query, { k: 5, minQuality: 0, documentIds: null, excluded });
    expect(ids(hits).sort()).toEqual([entries[42]!.id, entries[43]!.id].sort());
  });

  it('finds a stored vector as its own nearest neighbour and serves vectorOf', () => {
    const hits = index.search(entries[123]!.vector, {
      k: 1,
      minQuality: 0,
      documentIds: null,
      excluded: new Set(),
    });
    expect(hits[0]!.id).toBe(entries[123]!.id);
    expect(hits[0]!.similarity).toBeCloseTo(1, 5);
    expect(Array.from(index.vectorOf(entries[123]!.id)!)).toEqual(Array.from(entries[123]!.vector));
    expect(index.vectorOf(-1)).toBeNull();
  });

  it('handles k of zero, an empty index and zero vectors', () => {
    const query = entries[0]!.vector;
    expect(index.search(query, { k: 0, minQuality: 0, documentIds: null, excluded: new Set() })).toEqual([]);
    const empty = VectorIndex.fromEntries([], dim);
    expect(empty.search(query, { k: 3, minQuality: 0, documentIds: null, excluded: new Set() })).toEqual([]);
    const zeros = VectorIndex.fromEntries(
      [...entries.slice(0, 400), { id: 1, documentId: 0, quality: 1, vector: new Float32Array(dim) }],
      dim,
    );
    const hits = zeros.search(new Float32Array(dim), {
      k: 3,
      minQuality: 0,
      documentIds: null,
      excluded: new Set(),
    });
    expect(hits.map((h) => h.similarity)).toEqual([0, 0, 0]);
    expect(ids(hits)).toEqual([1, 1000, 1003]);
  });
});

describe('VectorIndex.withChanges', () => {
  const dim = 24;

  it('after random removals and additions, searches exactly as an index built from the surviving rows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        const random = randomOf(seed);
        let live = makeEntries(2600, dim, seed).map((e) => ({
          ...e,
          documentId: Math.floor((e.id - 1000) / 21),
        }));
        let index = VectorIndex.fromEntries(live, dim);
        let nextId = 1000 + 3 * 2600;
        let nextDocument = 1000;
        for (let step = 0; step < 6; step++) {
          const documents = [...new Set(live.map((e) => e.documentId))];
          const removed = documents.filter(() => random() < 0.05);
          // An edit: new chunks (ids past every old one) for a new document; now and then a lower id, as a
          // queued chunk of an older document gets its vector, which forces a compacting copy.
          const added = Array.from({ length: Math.floor(random() * 60) }, () => ({
            id: random() < 0.1 ? 1001 + 3 * Math.floor(random() * 2600) : nextId++,
            documentId: nextDocument,
            quality: random() < 0.1 ? 0.2 : 1,
            vector: unitVector(dim, random),
          }));
          nextDocument++;
          const addedIds = new Set(added.map((e) => e.id));
          index = index.withChanges({ removedDocuments: removed, added });
          live = [
            ...live.filter((e) => !removed.includes(e.documentId) && !addedIds.has(e.id)),
            ...added.filter((e, i) => added.findLastIndex((o) => o.id === e.id) === i),
          ];
        }
        const fresh = VectorIndex.fromEntries(live, dim);
        expect(index.size).toBe(fresh.size);
        for (let q = 0; q < 5; q++) {
          const query = unitVector(dim, random);
          const documentIds = new Set(live.slice(0, 400).map((e) => e.documentId));
          for (const options of [
            { k: 10, minQuality: 0.3, documentIds: null, excluded: new Set<number>() },
            { k: 7, minQuality: 0, documentIds, excluded: new Set([live[3]!.id]) },
          ]) {
            expect(index.search(query, options)).toEqual(fresh.search(query, options));
            expect(index.search(query, { ...options, exact: true })).toEqual(fresh.search(query, options));
          }
        }
        for (const e of live.slice(-5)) expect(index.vectorOf(e.id)).toEqual(fresh.vectorOf(e.id));
        const gone = makeEntries(2600, dim, seed).find((e) => !live.some((l) => l.id === e.id));
        if (gone) expect(index.vectorOf(gone.id)).toBeNull();
      }),
      { numRuns: 15 },
    );
  });

  it('keeps the later vector of a chunk listed twice among the additions, counted once', () => {
    const entries = makeEntries(3000, dim, 5);
    const base = VectorIndex.fromEntries(entries, dim);
    const first = { id: entries[20]!.id, documentId: 9, quality: 1, vector: entries[30]!.vector };
    const later = { ...first, vector: entries[40]!.vector };
    const changed = base.withChanges({ removedDocuments: [], added: [first, later] });
    expect(changed.size).toBe(3000);
    expect(Array.from(changed.vectorOf(first.id)!)).toEqual(Array.from(entries[40]!.vector));
    const options = { k: 1, minQuality: 0, documentIds: null, excluded: new Set([entries[40]!.id]) };
    expect(changed.search(entries[40]!.vector, options)[0]!.id).toBe(first.id);
  });

  it('appends in place without changing what an older snapshot sees', () => {
    const entries = makeEntries(3000, dim, 3);
    const base = VectorIndex.fromEntries(entries, dim);
    const extra = { id: 99_999, documentId: 7777, quality: 1, vector: entries[10]!.vector };
    const grown = base.withChanges({ removedDocuments: [entries[10]!.documentId], added: [extra] });
    const options = { k: 3, minQuality: 0, documentIds: null, excluded: new Set<number>() };
    expect(grown.search(entries[10]!.vector, options)[0]!.id).toBe(99_999);
    expect(base.search(entries[10]!.vector, options)[0]!.id).toBe(entries[10]!.id);
    expect(base.size).toBe(3000);
    expect(grown.size).toBe(3000 - 7 + 1);
  });
});
