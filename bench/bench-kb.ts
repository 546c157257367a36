// Shared set-up of the synthetic-KB benchmarks: an embedder stand-in that writes deterministic random unit vectors
// under a real model's identity (document inference would take hours at these sizes), and an in-process index run.

import path from 'node:path';
import { openKnowledgeBase } from '../src/app/index.js';
import { resolveConfig } from '../src/config/resolve-config.js';
import type { Embedder } from '../src/types.js';
import { createRandom } from './synthetic-kb.js';
import { randomUnitVector } from './vector-scan.js';

/** FNV-1a of a string: the seed of its stand-in vector, so the same text always gets the same vector. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Indexing stand-in: the real model's identity, deterministic random unit vectors instead of inference. */
export function randomVectorEmbedder(real: Embedder): Embedder {
  return {
    id: real.id,
    provider: real.provider,
    dimension: real.dimension,
    setup: real.setup,
    embedDocuments: async (texts) =>
      texts.map((t) => randomUnitVector(real.dimension, createRandom(hashText(t)))),
    embedQuery: (text) => real.embedQuery(text),
    // Recorded as the real model would: an index written without it is re-parsed whole by the first run with it.
    ...(real.passagesOverLimit
      ? { passagesOverLimit: (texts: string[]) => real.passagesOverLimit!(texts) }
      : {}),
    close: async () => {},
  };
}

/** The same embedder behind a fresh object (the facade closes what it is given; `close` is the caller's choice). */
export function bindEmbedder(real: Embedder): Embedder {
  return {
    id: real.id,
    provider: real.provider,
    dimension: real.dimension,
    setup: real.setup,
    embedDocuments: (texts) => real.embedDocuments(texts),
    embedQuery: (text) => real.embedQuery(text),
    close: () => real.close(),
  };
}

export interface IndexTiming {
  ms: number;
  chunks: number;
  documents: number;
}

/** One `groove index` through the facade: lexical-only without a model folder, else with `embedder`. */
export async function timeIndex(
  kbPath: string,
  dbPath: string,
  modelDir: string | null,
  embedder: Embedder | null,
): Promise<IndexTiming> {
  const overrides = modelDir ? { kbPath, dbPath, modelDir } : { kbPath, dbPath, model: 'none' };
  const config = resolveConfig({ cwd: path.dirname(dbPath), env: {}, overrides });
  const kb = openKnowledgeBase(config, embedder ? { createEmbedder: async () => embedder } : {});
  const started = performance.now();
  const summary = await kb.index();
  const ms = performance.now() - started;
  await kb.close();
  return { ms, chunks: summary.chunks, documents: summary.documents };
}
