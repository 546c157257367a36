// A deterministic test embedder that counts what it embeds and can fail on demand, so indexer tests can
// prove which chunks were (not) re-embedded and that a failing rebuild leaves the old index alone. Test-only.

import { createHash } from 'node:crypto';
import type { Embedder } from '../../src/types.js';

export interface CountingEmbedderOptions {
  /** Default 8. */
  dimension?: number;
  /** Recorded in the index as the model id; default `counting-8`. */
  model?: string;
  /** Throw from the call after this many successful `embedDocuments` calls; default never. */
  failAfterCalls?: number;
}

/** A unit vector derived from the SHA-256 of the text: equal texts give equal vectors, others differ. */
export function embedDeterministically(text: string, dimension: number): Float32Array {
  const digest = createHash('sha256').update(text).digest();
  const vector = new Float32Array(dimension);
  let norm = 0;
  for (let i = 0; i < dimension; i++) {
    const value = (digest[i % digest.length]! - 127.5) / 127.5 + i * 1e-3;
    vector[i] = value;
    norm += value * value;
  }
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < dimension; i++) vector[i] = vector[i]! * scale;
  return vector;
}

export class CountingEmbedder implements Embedder {
  readonly provider = 'test-counting';
  readonly id: string;
  readonly dimension: number;
  /** Number of `embedDocuments` calls that returned vectors. */
  calls = 0;
  /** Every passage embedded so far, in order. */
  readonly embeddedTexts: string[] = [];
  closed = false;
  private readonly failAfterCalls: number;

  constructor(options: CountingEmbedderOptions = {}) {
    this.dimension = options.dimension ?? 8;
    this.id = `test-counting:${options.model ?? `counting-${this.dimension}`}`;
    this.failAfterCalls = options.failAfterCalls ?? Number.POSITIVE_INFINITY;
  }

  async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    if (this.calls >= this.failAfterCalls) {
      throw new Error(`counting embedder: failing on purpose after ${this.failAfterCalls} calls`);
    }
    this.calls++;
    this.embeddedTexts.push(...texts);
    return texts.map((text) => embedDeterministically(text, this.dimension));
  }

  async embedQuery(text: string): Promise<Float32Array> {
    return embedDeterministically(text, this.dimension);
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** Forget the counts (the embedder itself stays usable). */
  reset(): void {
    this.calls = 0;
    this.embeddedTexts.length = 0;
  }
}
