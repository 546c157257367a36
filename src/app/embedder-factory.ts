// Maps the resolved config to an embedder; heavy model code is imported only when a model is used.
import type { ResolvedConfig } from '../config/resolve-config.js';
import { GrooveError } from '../errors.js';
import type { Embedder } from '../types.js';

/** `null` means lexical-only (`--model none` or provider `none`). */
export async function createEmbedderFor(config: ResolvedConfig): Promise<Embedder | null> {
  if (config.embedding.provider === 'none' || (config.model === 'none' && !config.localModelDir)) return null;
  throw new GrooveError(
    'MODEL_UNAVAILABLE',
    `embedding provider "${config.embedding.provider}" is not wired yet`,
    {
      hint: 'use --model none for a lexical-only index',
    },
  );
}
