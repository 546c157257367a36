// The model identity an index records, and the rule for when a command's model may differ from it.
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { GrooveError } from '../../errors.js';
import type { MetaKey } from '../../store/index-meta.js';
import type { Embedder } from '../../types.js';

export interface IndexIdentity {
  model: string;
  provider: string;
  dimension: number;
  contextMode: 'static' | 'off';
  /** Absolute local model folder when the index was built with `--model-dir`. */
  modelDir: string | null;
}

export function identityOf(embedder: Embedder | null, config: ResolvedConfig): IndexIdentity {
  return {
    model: embedder?.id ?? 'none',
    provider: embedder?.provider ?? 'none',
    dimension: embedder?.dimension ?? 0,
    contextMode: config.contextual.enabled ? 'static' : 'off',
    modelDir: config.localModelDir,
  };
}

export function identityFromMeta(meta: Partial<Record<MetaKey, string>>): IndexIdentity | null {
  if (meta.embedding_model === undefined) return null;
  return {
    model: meta.embedding_model,
    provider: meta.embedding_provider ?? 'none',
    dimension: Number(meta.embedding_dim ?? 0),
    contextMode: meta.context_mode === 'static' ? 'static' : 'off',
    modelDir: meta.embedding_model_dir || null,
  };
}

export function identityToMeta(identity: IndexIdentity): Record<string, string> {
  return {
    embedding_model: identity.model,
    embedding_provider: identity.provider,
    embedding_dim: String(identity.dimension),
    context_mode: identity.contextMode,
    embedding_model_dir: identity.modelDir ?? '',
  };
}

/** Throw INDEX_MISMATCH naming both identities and the `--force` fix. */
export function assertSameIdentity(stored: IndexIdentity, wanted: IndexIdentity, dbPath: string): void {
  const differences: string[] = [];
  if (stored.model !== wanted.model) differences.push(`model "${stored.model}" vs "${wanted.model}"`);
  if (stored.provider !== wanted.provider)
    differences.push(`provider "${stored.provider}" vs "${wanted.provider}"`);
  if (stored.dimension !== wanted.dimension)
    differences.push(`dimension ${stored.dimension} vs ${wanted.dimension}`);
  if (stored.contextMode !== wanted.contextMode)
    differences.push(`context mode "${stored.contextMode}" vs "${wanted.contextMode}"`);
  if (differences.length === 0) return;
  throw new GrooveError(
    'INDEX_MISMATCH',
    `index "${dbPath}" was built with a different setup (index vs requested: ${differences.join(', ')})`,
    { hint: 'rebuild it with `groove index --force`, or drop the flag/config that changed the model' },
  );
}

/**
 * When the user did not choose a model, commands follow the one the index was built with: the config with the
 * index's model (and its context mode, if the config has none), as a new object; `config` is not changed.
 */
export function adoptIndexModel(config: ResolvedConfig, stored: IndexIdentity): ResolvedConfig {
  if (config.modelExplicit) return config;
  const adopted = { ...config, embedding: { ...config.embedding }, contextual: { ...config.contextual } };
  if (stored.provider === 'none') {
    adopted.model = 'none';
    adopted.embedding.provider = 'none';
  } else if (stored.modelDir) {
    adopted.localModelDir = stored.modelDir;
    adopted.embedding.provider = 'transformers';
  } else if (stored.provider === 'transformers') {
    adopted.model = stored.model.replace(/^transformers:/, '');
    adopted.embedding.provider = 'transformers';
  }
  if (!adopted.contextual.enabled && stored.contextMode === 'static') adopted.contextual.enabled = true;
  return adopted;
}
