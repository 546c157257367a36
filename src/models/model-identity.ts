// The identity an index records for its vectors (model + provider + dimension), derived from an embedder.

import type { Embedder, ModelIdentity } from '../types.js';

/** `{model:'none', provider:'none', dimension:0}` for a lexical-only index (no embedder). */
export const LEXICAL_ONLY_IDENTITY: ModelIdentity = { model: 'none', provider: 'none', dimension: 0 };

/** Embedder ids are `<provider>:<model>`; the model part is what the index stores. */
export function toModelIdentity(embedder: Embedder | null): ModelIdentity {
  if (embedder === null) return { ...LEXICAL_ONLY_IDENTITY };
  const prefix = `${embedder.provider}:`;
  const model = embedder.id.startsWith(prefix) ? embedder.id.slice(prefix.length) : embedder.id;
  return { model, provider: embedder.provider, dimension: embedder.dimension };
}

/** Whether vectors made under `a` can be compared with vectors made under `b`. */
export function isSameModelIdentity(a: ModelIdentity, b: ModelIdentity): boolean {
  return a.model === b.model && a.provider === b.provider && a.dimension === b.dimension;
}
