// One indexing run on an open index file: the chunk policy, the model identity, then the incremental indexer.
import type { ResolvedConfig } from '../../config/resolve-config.js';
import type { Embedder } from '../../types.js';
import type { IndexIdentity } from '../models/index.js';
import type { IndexDatabase } from './index-database.js';
import type { IndexEventSink, IndexSummary } from './index-events.js';
import { runIndex } from './indexer.js';
import { buildIndexerPorts } from './indexer-ports.js';

export interface IndexRunInput {
  kbPath: string;
  config: ResolvedConfig;
  embedder: Embedder | null;
  identity: IndexIdentity;
  onEvent?: IndexEventSink;
  /** Asked between embedding batches: true ends the run with the rest of the queue left for the next one. */
  shouldPauseEmbedding?: () => boolean;
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
  // Record the policy up front on a fresh index, so a first run killed midway is not re-parsed next time.
  if (storedPolicy === undefined) database.recordChunkPolicy(policy);
  const windows = input.embedder?.passagesOverLimit !== undefined;
  if (windows && fresh) database.recordLongInputsInWindows();
  const recheckLongVectors = windows && !fresh && database.longInputs() !== 'windows';
  const reparseAll = recheckLongVectors || (storedPolicy !== undefined && storedPolicy !== policy && !fresh);
  database.writeIdentity(input.identity);
  const skipped: { path: string; reason: string }[] = [];
  const forward = input.onEvent ?? (() => {});
  const summary = await runIndex({
    store: database.documents,
    ports: buildIndexerPorts(input.kbPath, config),
    embedder: input.embedder,
    reparseAll,
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
  });
  database.recordSkippedFiles(skipped);
  if (windows) database.recordLongInputsInWindows();
  database.finishRun(policy);
  return summary;
}
