// Where the KB and its index are, and what the index holds: counts and identity, read without creating anything.
import fs from 'node:fs';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { GrooveError } from '../../errors.js';
import type { EmbeddingSetup } from '../../types.js';
import { identityFromMeta } from '../embedding/index.js';
import { checkIndexLocation, IndexDatabase } from './index-database.js';
import { withDefaultIndexPath } from './index-owner.js';

/** Where an index lives: a SQLite file, or a shared PostgreSQL store (URL with the password masked, KB name). */
export interface StorageDescription {
  backend: 'sqlite' | 'postgres';
  location: string;
}

export interface StatusReport {
  kbPath: string;
  /** The index path; with a shared store, the path of its local working copy. */
  dbPath: string;
  dbSizeBytes: number;
  documents: number;
  chunks: number;
  vectors: number;
  /** Chunks still waiting for their vector (a first index embedding behind its lexical rows). */
  pendingEmbeddings: number;
  /**
   * How a local model's inputs longer than it reads in one pass were embedded: `windows` (read whole, in windows)
   * or `cut` (an index built before windows: those vectors miss their tails until the next `groove index`); null
   * without a local model (lexical-only, or an endpoint, whose server decides).
   */
  longInputs: 'windows' | 'cut' | null;
  /** The index's model; while `modelPending`, the configured model its chunks wait for. */
  model: string;
  provider: string;
  /**
   * The configured model has never loaded for this index (not downloaded yet, offline): the index holds the text,
   * searchable by keyword, and its chunks wait for the model.
   */
  modelPending: boolean;
  dimension: number;
  contextMode: string;
  /** The pooling and prefixes the vectors were made with; null when the index does not record them. */
  setup: EmbeddingSetup | null;
  lastIndexedAt: string | null;
  frontmatterErrors: number;
  /** Note links stored (each distinct target once per note), and those naming a note that is not indexed. */
  links: number;
  danglingLinks: number;
  schemaVersion: number;
  storage: StorageDescription;
  /** What agents did with served documents (MCP `task_id`); null when the usage file could not be read. */
  usage?: UsageCounts | null;
}

/** Documents served to agents' tasks, and how many of those the same task fetched and judged. */
export interface UsageCounts {
  /** Distinct task ids that searches were served under. */
  tasks: number;
  /** Distinct (task, document) pairs served. */
  served: number;
  /** Served pairs the same task later fetched (get_document or a document resource). */
  fetched: number;
  /** Served pairs the same task judged with record_feedback; null when judgments cannot be read here. */
  judged: number | null;
}

/** Resolve kb and db paths or explain which flag is missing. */
export function requireKbPaths(config: ResolvedConfig): { kbPath: string; dbPath: string } {
  if (!config.kbPath) {
    throw new GrooveError('KB_PATH_MISSING', 'no knowledge base given', {
      hint: 'pass --kb NAME (a KB of `groove kb list`) or --kb-path DIR, or set kb_path in groove.toml',
    });
  }
  const stat = fs.statSync(config.kbPath, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) {
    const named = config.kbName === null ? '' : ` (KB "${config.kbName}")`;
    throw new GrooveError('KB_NOT_FOUND', `knowledge base "${config.kbPath}"${named} is not a directory`, {
      hint:
        config.kbName === null
          ? 'check --kb-path (it must be an existing folder of notes)'
          : `its folder is gone; its index is kept: restore the folder, or see \`groove kb show ${config.kbName}\``,
    });
  }
  const { dbPath } = withDefaultIndexPath(config);
  if (dbPath === null)
    throw new GrooveError('KB_NOT_FOUND', `knowledge base "${config.kbPath}" is not a directory`);
  checkIndexLocation(config.kbPath, dbPath);
  return { kbPath: config.kbPath, dbPath };
}

/** What a status read needs of the configuration besides the paths. */
export interface StatusSettings {
  /** The extensions of `[parsers] enabled`: they tell a dangling link to a note from a link to an attachment. */
  noteExtensions: readonly string[];
  /** The embedder id the configuration asks for (`none` for lexical-only, null for an unknown model id). */
  configuredModel: string | null;
}

/** Counts and identity of the index at dbPath; never creates one. */
export function readIndexStatus(
  kbPath: string,
  dbPath: string,
  settings: StatusSettings,
  storage: StorageDescription,
): StatusReport {
  const database = IndexDatabase.open(dbPath, { create: false, kbPath });
  try {
    const meta = database.meta();
    const identity = identityFromMeta(meta);
    const counts = database.counts();
    const links = database.linkTally(settings.noteExtensions);
    const configured = settings.configuredModel;
    // Text written, no model recorded, chunks queued: a first run whose model could not load (yet).
    const pending =
      identity === null && counts.pendingEmbeddings > 0 && configured !== null && configured !== 'none';
    return {
      kbPath,
      dbPath,
      dbSizeBytes: database.sizeBytes(),
      documents: counts.documents,
      chunks: counts.chunks,
      vectors: counts.vectors,
      pendingEmbeddings: counts.pendingEmbeddings,
      longInputs:
        identity?.provider === 'transformers' ? (meta.long_inputs === 'windows' ? 'windows' : 'cut') : null,
      model: identity?.model ?? (pending ? configured : 'none'),
      provider: identity?.provider ?? (pending ? (configured.split(':')[0] ?? 'none') : 'none'),
      modelPending: pending,
      dimension: identity?.dimension ?? 0,
      contextMode: identity?.contextMode ?? 'off',
      setup: identity?.setup ?? null,
      lastIndexedAt: meta.last_indexed_at ?? null,
      frontmatterErrors: counts.frontmatterErrors,
      links: links.links,
      danglingLinks: links.dangling,
      schemaVersion: Number(meta.schema_version ?? 0),
      storage,
    };
  } finally {
    database.close();
  }
}

/** The one wire form of a status report (`groove status --format json`, the status page's `/api/status`). */
export function statusReportToJson(report: StatusReport): Record<string, unknown> {
  return {
    kb_path: report.kbPath,
    db_path: report.dbPath,
    db_size_bytes: report.dbSizeBytes,
    documents: report.documents,
    chunks: report.chunks,
    vectors: report.vectors,
    pending_embeddings: report.pendingEmbeddings,
    long_inputs: report.longInputs,
    model: report.model,
    provider: report.provider,
    model_pending: report.modelPending,
    dimension: report.dimension,
    context_mode: report.contextMode,
    pooling: report.setup?.pooling ?? null,
    query_prefix: report.setup?.queryPrefix ?? null,
    passage_prefix: report.setup?.passagePrefix ?? null,
    setup_source: report.setup?.source ?? null,
    last_indexed_at: report.lastIndexedAt,
    frontmatter_errors: report.frontmatterErrors,
    links: report.links,
    dangling_links: report.danglingLinks,
    schema_version: report.schemaVersion,
    backend: report.storage.backend,
    storage_location: report.storage.location,
    ...(report.usage === undefined ? {} : { usage: report.usage }),
  };
}
