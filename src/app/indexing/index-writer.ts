// The one entry for indexing a knowledge base, as its one writer: take the writer lock → open the backend's index
// file (a new one beside it for --force) → follow and check the model the index records → run the indexer →
// record what the run decided. The facade calls indexKnowledgeBase once; nothing else starts a run.
import type { ResolvedConfig } from '../../config/resolve-config.js';
import type { Embedder } from '../../types.js';
import {
  adoptIndexModel,
  assertSameIdentity,
  embedderIdOf,
  type IndexIdentity,
  identityOf,
} from '../embedding/index.js';
import type { IndexBackend } from './index-backend.js';
import { IndexDatabase } from './index-database.js';
import type { IndexEventSink, IndexSummary } from './index-events.js';
import type { FileSession, IndexFile } from './index-file.js';
import { ownerMeta } from './index-owner.js';
import { runIndex } from './indexer.js';
import { buildIndexerPorts } from './indexer-ports.js';
import { guardSettingsDrops, guardSettingsDropsAt, shapingSettingsOf } from './settings-guard.js';

export interface IndexOptions {
  force?: boolean;
  onEvent?: IndexEventSink;
  /**
   * Asked between embedding batches: true ends the run early with the rest of the embedding queue left for the
   * next run (the server's live sync, so an edit is not held up behind a long first embedding).
   */
  shouldPauseEmbedding?: () => boolean;
  /**
   * Look at these KB-relative paths only (live sync's changed files); every file when absent. Ignored by
   * `force`, and by a run that must re-parse everything.
   */
  paths?: readonly string[];
  /**
   * Documents the settings in effect would drop while their files are still there, when those settings were not
   * chosen for this KB (found from the current folder, or the defaults): `refuse` the run (default) or `keep`
   * them and say so (live sync, which must go on serving).
   */
  settingsDrops?: 'refuse' | 'keep';
  /**
   * On an index whose model never loaded, a model that still cannot load does not fail the run: the text is
   * indexed and the chunks keep waiting (the server's live sync, while it tries the model again).
   */
  keepTextWithoutModel?: boolean;
}

/** What indexing needs of a knowledge base: its index file and backend, its settings and its one embedder. */
export interface IndexTarget {
  file: IndexFile<FileSession>;
  backend: IndexBackend;
  /** The settings in effect now. */
  settings(): ResolvedConfig;
  /** Follow the model an existing index records: the knowledge base's settings from then on. */
  follow(settings: ResolvedConfig): void;
  /** The embedder of the settings in effect, loaded once per knowledge base. */
  embedder(): Promise<Embedder | null>;
}

/** The run's model: loaded, or still loading (a first index writes every file's text meanwhile). */
interface RunModel {
  embedder: Embedder | null | Promise<Embedder | null>;
  /** The identity the index recorded before the run; null for a new index or one whose model never loaded. */
  recorded: IndexIdentity | null;
}

/** Index the KB incrementally; `force` rebuilds into a new file and swaps it in only when complete. */
export function indexKnowledgeBase(target: IndexTarget, options: IndexOptions = {}): Promise<IndexSummary> {
  return target.file.write(() =>
    target.backend.write(options.force === true, {
      update: () => update(target, options),
      rebuild: () => rebuild(target, options),
    }),
  );
}

async function update(target: IndexTarget, options: IndexOptions): Promise<IndexSummary> {
  const database = IndexDatabase.open(target.backend.dbPath, { create: true });
  try {
    const fresh = database.documentCount() === 0;
    const recorded = fresh ? null : database.identity();
    if (recorded) target.follow(adoptIndexModel(target.settings(), recorded));
    await target.backend.prepareForModel(target.settings());
    // A first index writes every file's text while the model loads (or downloads): nothing to check it against.
    // So does a run on an index whose model never loaded yet (it records no model): its text stays current.
    if (recorded === null && embedderIdOf(target.settings()) !== 'none') {
      const loading = target.embedder();
      loading.catch(() => undefined); // awaited by the run once the text is written
      return await fill(database, target, options, { embedder: loading, recorded });
    }
    return await fill(database, target, options, { embedder: await target.embedder(), recorded });
  } finally {
    database.close();
  }
}

async function rebuild(target: IndexTarget, options: IndexOptions): Promise<IndexSummary> {
  const { dbPath, kbPath } = target.backend;
  IndexDatabase.assertReplaceable(dbPath); // before any work: only groove's own index is ever replaced
  guardSettingsDropsAt(dbPath, { kbPath, config: target.settings(), onEvent: options.onEvent });
  const embedder = await target.embedder();
  return target.file.rebuild(async (tempPath) => {
    const database = IndexDatabase.open(tempPath, { create: true });
    try {
      return await fill(database, target, options, { embedder, recorded: null });
    } finally {
      database.close();
    }
  }, options.onEvent);
}

/**
 * Index the KB into `database`; a changed chunk policy re-parses every file, and so does a first run with a
 * model that reads long inputs in windows on an index whose vectors may have been cut off at the model's limit.
 * A loaded model must be the one the index records; the run's refusals are recorded.
 */
async function fill(
  database: IndexDatabase,
  target: IndexTarget,
  options: IndexOptions,
  model: RunModel,
): Promise<IndexSummary> {
  const config = target.settings();
  const { kbPath, owner } = target.backend;
  const loaded = model.embedder instanceof Promise ? undefined : model.embedder;
  const identity = loaded === undefined ? null : identityOf(loaded, config);
  // The one check of the model against the index, before anything is written.
  if (model.recorded && identity) assertSameIdentity(model.recorded, identity, database.path);
  const policy = database.chunkPolicyFor(config);
  const storedPolicy = database.storedChunkPolicy();
  const fresh = database.documentCount() === 0;
  // No model recorded yet: no vector of this index can have been cut off by an older groove.
  const noVectorsYet = fresh || database.identity() === null;
  const ready = (embedder: Embedder | null, known: IndexIdentity | null) => {
    database.writeIdentity(known ?? identityOf(embedder, config));
    if (noVectorsYet && embedder?.passagesOverLimit !== undefined) database.recordLongInputsInWindows();
  };
  // A model still loading means a fresh index, whose vectors cannot have been cut off by an older groove.
  const windows = loaded?.passagesOverLimit !== undefined;
  const recheckLongVectors = windows && !fresh && database.longInputs() !== 'windows';
  const reparseAll = recheckLongVectors || (storedPolicy !== undefined && storedPolicy !== policy && !fresh);
  // A run that must re-parse everything, or fill a new index, looks at every file.
  const onlyPaths = reparseAll || fresh || options.force ? undefined : options.paths;
  // Before anything is written: settings that were not chosen for this KB never drop its documents.
  const keepPaths = guardSettingsDrops(database, {
    kbPath,
    config,
    onlyPaths,
    onEvent: options.onEvent,
    whenUnchosen: options.settingsDrops ?? 'refuse',
  });
  // Record the policy up front on a fresh index, so a first run killed midway is not re-parsed next time.
  if (storedPolicy === undefined) database.recordChunkPolicy(policy);
  database.recordShaping(owner ? ownerMeta(owner) : {}, JSON.stringify(shapingSettingsOf(config)));
  if (loaded !== undefined) ready(loaded, identity);
  const skipped: { path: string; reason: string }[] = [];
  const forward = options.onEvent ?? (() => {});
  const finish = () => {
    database.recordSkippedFiles(skipped, onlyPaths);
    if (windows) database.recordLongInputsInWindows();
    database.finishRun(policy);
  };
  const summary = await runIndex({
    store: database.documents,
    ports: buildIndexerPorts(kbPath, config),
    embedder: model.embedder,
    modelLabel: embedderIdOf(config) ?? config.model,
    onEmbedderReady: loaded === undefined ? (embedder) => ready(embedder, null) : undefined,
    reparseAll,
    onlyPaths,
    keepPaths,
    recheckLongVectors,
    contextual: config.contextual.enabled,
    maxInputChars: config.embedding.maxInputChars,
    batchSize: config.embedding.batchSize,
    queue: database.embeddingQueue,
    shouldPauseEmbedding: options.shouldPauseEmbedding,
    onEvent: (event) => {
      if (event.kind === 'skipped') skipped.push({ path: event.path, reason: event.message });
      forward(event);
    },
    countRows: () => database.counts(),
    // While the model loads, the text is complete before it is awaited: a model that cannot load still leaves a
    // finished text index (its time is "last indexed"), with its chunks waiting for the model.
    onTextWritten: loaded === undefined ? finish : undefined,
    keepTextWithoutModel: options.keepTextWithoutModel,
  });
  finish();
  return summary;
}
