// A deterministic embedder for ranking tests: feature hashing of lowercase words and character trigrams,
// L2-normalised. Texts sharing words or trigrams are similar, so ranking assertions are stable. Test-only.

import type { Embedder } from '../../src/types.js';

export interface HashEmbedderOptions {
  /** Default 256. */
  dimension?: number;
  /** Weight of a character trigram relative to a whole word. Default 0.5. */
  trigramWeight?: number;
}

/** FNV-1a over UTF-16 code units: fast, stable and good enough to spread features. */
function hashFeature(feature: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < feature.length; i++) {
    hash ^= feature.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function addFeature(vector: Float32Array, feature: string, weight: number): void {
  const hash = hashFeature(feature);
  // The top bit picks the sign so collisions cancel out on average instead of piling up.
  const sign = hash & 0x80000000 ? -1 : 1;
  const slot = hash % vector.length;
  vector[slot] = (vector[slot] ?? 0) + sign * weight;
}

export function embedByHashing(text: string, dimension: number, trigramWeight: number): Float32Array {
  const vector = new Float32Array(dimension);
  const lower = text.toLowerCase();
  const words = lower.match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    addFeature(vector, `w:${word}`, 1);
    const chars = [...` ${word} `];
    for (let i = 0; i + 3 <= chars.length; i++)
      addFeature(vector, `t:${chars.slice(i, i + 3).join('')}`, trigramWeight);
  }
  let norm = 0;
  for (const v of vector) norm += v * v;
  if (norm === 0) {
    // Text without any letter or digit still needs a unit vector; use one fixed direction.
    vector[0] = 1;
    return vector;
  }
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] ?? 0) * scale;
  return vector;
}

export class HashEmbedder implements Embedder {
  readonly provider = 'test-hash';
  readonly dimension: number;
  readonly id: string;
  private readonly trigramWeight: number;
  /** Texts embedded so far, for tests that count embedder calls. */
  embeddedTexts = 0;

  constructor(options: HashEmbedderOptions = {}) {
    this.dimension = options.dimension ?? 256;
    this.trigramWeight = options.trigramWeight ?? 0.5;
    this.id = `test-hash:hash-${this.dimension}`;
  }

  async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    this.embeddedTexts += texts.length;
    return texts.map((t) => embedByHashing(t, this.dimension, this.trigramWeight));
  }

  async embedQuery(text: string): Promise<Float32Array> {
    this.embeddedTexts += 1;
    return embedByHashing(text, this.dimension, this.trigramWeight);
  }

  async close(): Promise<void> {}
}
