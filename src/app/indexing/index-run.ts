// One indexing run on an open index file: the chunk policy, the model identity, then the incremental indexer.
import type { ResolvedConfig } from '../../config/resolve-config.js';
import type { Embedder } from '../../types.js';
import { type IndexIdentity, identityOf } from '../embedding/index.js';
import type { IndexDatabase } from './index-database.js';
import type { IndexEventSink, IndexSummary } from './index-events.js';
import { type KbIdentity, ownerMeta } from './index-owner.js';
import { runIndex } from './indexer.js';
import { buildIndexerPorts } from './indexer-ports.js';
import { guardSettingsDrops, shapingSettingsOf } from './settings-guard.js';

export interface IndexRunInput {
  kbPath: string;
  config: ResolvedConfig;
  /** The model, or its load still under way (a first index writes every file's text meanwhile). */
  embedder: Embedder | null | Promise<Embedder | null>;
  /** The index's identity; null while the model loads (recorded from the model once it is loaded). */
  identity: IndexIdentity | null;
  /** What the run reports as its model while the model loads. */
  modelLabel: string;
  onEvent?: IndexEventSink;
  /** Asked between embedding batches: true ends the run with the rest of the queue left for the next one. */
  shouldPauseEmbedding?: () => boolean;
  /** Look at these KB-relative paths only (live sync's changed files); every file when absent. */
  onlyPaths?: readonly string[];
  /** The KB the index is recorded to belong to (checked before the run); null on a shared store's working copy. */
  owner?: KbIdentity | null;
  /** Documents that settings not chosen for this KB would drop: refuse the run (default) or keep them. */
  settingsDrops?: 'refuse' | 'keep';
  /** A model that cannot load leaves the text indexed and the chunks waiting, instead of failing the run. */
  keepTextWithoutModel?: boolean;
}

/**
 * Index the KB into `database`; a changed chunk policy re-parses every file, and so does a first run with a
 * model that reads long inputs in windows on an index whose vectors may have been cut off at the model's limit.
 * The run's refusals are recorded.
 */
export async function runIndexOn(database: IndexDatabase, input: IndexRunInput): Promise<IndexSummary> {
  const { config } = input;
  const policy = database.chunkPolicyFor(config);
  const storedPolicy = database.storedChunkPolicy();
  const fresh = database.documentCount() === 0;
  // No model recorded yet: no vector of this index can have been cut off by an older groove.
  const noVectorsYet = fresh || database.identity() === null;
  const ready = (embedder: Embedder | null) => {
    database.writeIdentity(input.identity ?? identityOf(embedder, config));
    if (noVectorsYet && embedder?.passagesOverLimit !== undefined) database.recordLongInputsInWindows();
  };
  const loaded = input.embedder instanceof Promise ? undefined : input.embedder;
  // A model still loading means a fresh index, whose vectors cannot have been cut off by an older groove.
  const windows = loaded?.passagesOverLimit !== undefined;
  const recheckLongVectors = windows && !fresh && database.longInputs() !== 'windows';
  const reparseAll = recheckLongVectors || (storedPolicy !== undefined && storedPolicy !== policy && !fresh);
  // A run that must re-parse everything, or fill a new index, looks at every file.
  const onlyPaths = reparseAll || fresh ? undefined : input.onlyPaths;
  // Before anything is written: settings that were not chosen for this KB never drop its documents.
  const keepPaths = guardSettingsDrops(database, {
    kbPath: input.kbPath,
    config,
    onlyPaths,
    onEvent: input.onEvent,
    whenUnchosen: input.settingsDrops ?? 'refuse',
  });
  // Record the policy up front on a fresh index, so a first run killed midway is not re-parsed next time.
  if (storedPolicy === undefined) database.recordChunkPolicy(policy);
  database.recordShaping(
    input.owner ? ownerMeta(input.owner) : {},
    JSON.stringify(shapingSettingsOf(config)),
  );
  if (loaded !== undefined) ready(loaded);
  const skipped: { path: string; reason: string }[] = [];
  const forward = input.onEvent ?? (() => {});
  const finish = () => {
    database.recordSkippedFiles(skipped, onlyPaths);
    if (windows) database.recordLongInputsInWindows();
    database.finishRun(policy);
  };
  const summary = await runIndex({
    store: database.documents,
    ports: buildIndexerPorts(input.kbPath, config),
    embedder: input.embedder,
    modelLabel: input.modelLabel,
    onEmbedderReady: loaded === undefined ? ready : undefined,
    reparseAll,
    onlyPaths,
    keepPaths,
    recheckLongVectors,
    contextual: config.contextual.enabled,
    maxInputChars: config.embedding.maxInputChars,
    batchSize: config.embedding.batchSize,
    queue: database.embeddingQueue,
    shouldPauseEmbedding: input.shouldPauseEmbedding,
    onEvent: (event) => {
      if (event.kind === 'skipped') skipped.push({ path: event.path, reason: event.message });
      forward(event);
    },
    countRows: () => database.counts(),
    // While the model loads, the text is complete before it is awaited: a model that cannot load still leaves a
    // finished text index (its time is "last indexed"), with its chunks waiting for the model.
    onTextWritten: loaded === undefined ? finish : undefined,
    keepTextWithoutModel: input.keepTextWithoutModel,
  });
  finish();
  return summary;
}
