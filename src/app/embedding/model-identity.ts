// The model identity an index records, and the rule for when a command's model may differ from it.
import path from 'node:path';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { GrooveError } from '../../errors.js';
import type { MetaKey } from '../../store/index-meta.js';
import type { Embedder, EmbeddingSetup } from '../../types.js';

export interface IndexIdentity {
  model: string;
  provider: string;
  dimension: number;
  contextMode: 'static' | 'off';
  /** Absolute local model folder when the index was built with `--model-dir`. */
  modelDir: string | null;
  /** Pooling and prefixes the vectors were made with; null for an index built before groove recorded them. */
  setup: EmbeddingSetup | null;
}

/** The setup of an embedder that describes none (a lexical-only index, a stand-in): no pooling, no prefixes. */
const NO_SETUP: EmbeddingSetup = { pooling: null, queryPrefix: '', passagePrefix: '', source: '' };

export function identityOf(embedder: Embedder | null, config: ResolvedConfig): IndexIdentity {
  return {
    model: embedder?.id ?? 'none',
    provider: embedder?.provider ?? 'none',
    dimension: embedder?.dimension ?? 0,
    contextMode: config.contextual.enabled ? 'static' : 'off',
    modelDir: config.localModelDir,
    setup: embedder?.setup ?? NO_SETUP,
  };
}

/**
 * The recorded setup; for an index built before groove recorded it, what groove then did where that is certain
 * (an endpoint or no model: no pooling, no prefixes), else null (unknown).
 */
function setupFromMeta(meta: Partial<Record<MetaKey, string>>): EmbeddingSetup | null {
  const pooling = meta.embedding_pooling;
  if (pooling === undefined) {
    const provider = meta.embedding_provider ?? 'none';
    return ['none', 'openai-compatible', 'ollama'].includes(provider) ? NO_SETUP : null;
  }
  return {
    pooling: pooling === 'mean' || pooling === 'cls' ? pooling : null,
    queryPrefix: meta.embedding_query_prefix ?? '',
    passagePrefix: meta.embedding_passage_prefix ?? '',
    source: meta.embedding_setup_source ?? '',
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
    setup: setupFromMeta(meta),
  };
}

export function identityToMeta(identity: IndexIdentity): Record<string, string> {
  const setup = identity.setup ?? NO_SETUP;
  return {
    embedding_model: identity.model,
    embedding_provider: identity.provider,
    embedding_dim: String(identity.dimension),
    context_mode: identity.contextMode,
    embedding_model_dir: identity.modelDir ?? '',
    embedding_pooling: setup.pooling ?? 'none',
    embedding_query_prefix: setup.queryPrefix,
    embedding_passage_prefix: setup.passagePrefix,
    embedding_setup_source: setup.source,
  };
}

/** How two setups differ, for INDEX_MISMATCH; nothing when either is unknown (an index from before recording). */
function setupDifferences(stored: EmbeddingSetup | null, wanted: EmbeddingSetup | null): string[] {
  if (!stored || !wanted) return [];
  const differences: string[] = [];
  if (stored.pooling !== wanted.pooling)
    differences.push(`pooling "${stored.pooling ?? 'none'}" vs "${wanted.pooling ?? 'none'}"`);
  if (stored.queryPrefix !== wanted.queryPrefix)
    differences.push(
      `query prefix ${JSON.stringify(stored.queryPrefix)} vs ${JSON.stringify(wanted.queryPrefix)}`,
    );
  if (stored.passagePrefix !== wanted.passagePrefix)
    differences.push(
      `passage prefix ${JSON.stringify(stored.passagePrefix)} vs ${JSON.stringify(wanted.passagePrefix)}`,
    );
  return differences;
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
  if (differences.length === 0) differences.push(...setupDifferences(stored.setup, wanted.setup));
  if (differences.length === 0) return;
  throw new GrooveError(
    'INDEX_MISMATCH',
    `index "${dbPath}" was built with a different setup (index vs requested: ${differences.join(', ')})`,
    {
      hint: 'rebuild it with `groove index --force`, or drop the flag/config that changed the model, its pooling or prefixes',
    },
  );
}

/** The config with the index's model: the model the user did not choose, and its context mode if none is set. */
function adoptModel(config: ResolvedConfig, stored: IndexIdentity): ResolvedConfig {
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

/** Whether the config embeds with the index's folder or endpoint, whose recorded setup then applies. */
function embedsLikeIndex(config: ResolvedConfig, stored: IndexIdentity): boolean {
  const e = config.embedding;
  if (e.provider === 'openai-compatible' || e.provider === 'ollama') {
    return stored.model === `${e.provider}:${e.model ?? ''}`;
  }
  return Boolean(
    stored.modelDir && config.localModelDir && path.resolve(config.localModelDir) === stored.modelDir,
  );
}

/**
 * The config a command on this index runs with, as a new object (`config` is not changed): when the user did not
 * choose a model, the index's model (and its context mode, if the config has none); and, for the index's own
 * folder or endpoint, the pooling and prefixes it records (`recordedSetup`), used where neither the user nor the
 * folder says.
 */
export function adoptIndexModel(config: ResolvedConfig, stored: IndexIdentity): ResolvedConfig {
  const adopted = config.modelExplicit ? { ...config } : adoptModel(config, stored);
  adopted.recordedSetup = embedsLikeIndex(adopted, stored) ? (stored.setup ?? 'unrecorded') : null;
  return adopted;
}
