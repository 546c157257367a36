// The index use case: walk → stat/hash decisions → parse → write each file's lexical rows (chunks without a
// reusable vector are queued) → embed the queue behind, batch by batch.

import { displayPath } from '../../core/display-path.js';
import { sha256Hex } from '../../core/sha256.js';
import { NO_TEXT_REASON } from '../../document/no-text-skip.js';
import type { ChunkRowInput } from '../../store/document-store.js';
import type { Embedder, ParsedDocument } from '../../types.js';
import { fillEmbeddingQueue } from './embed-queue-fill.js';
import { dropCutOffVectors, toEmbeddingInput } from './embed-rows.js';
import { emptyIndexSummary, type IndexEvent, type IndexSummary } from './index-events.js';
import type { FileReadResult, RunIndexOptions, WalkedEntry } from './indexer-options.js';
import { isUnchangedByStat, planRenames, type StoredFileState } from './plan-index-changes.js';

export type {
  ExtractedParse,
  FileReadResult,
  IndexerPorts,
  RunIndexOptions,
  WalkedEntry,
} from './indexer-options.js';

interface PendingFile {
  entry: WalkedEntry;
  read: Extract<FileReadResult, { ok: true }>;
  stored: StoredFileState | undefined;
  renamedFrom: string | undefined;
  /** Stored document whose vectors may be reused: the same path, or the rename source. */
  sourceDocumentId: number | undefined;
}

interface PreparedFile extends PendingFile {
  parsed: ParsedDocument;
  rows: ChunkRowInput[];
  /** Indices into `rows` that still need a vector. */
  missing: number[];
}

/** Files parsed, then written, together. */
const FILES_PER_GROUP = 64;
/** Files read and hashed, or parsed, between two yields to the event loop. */
const YIELD_EVERY_FILES = 64;
const YIELD_EVERY_PARSED = 16;
/**
 * A write transaction takes files until this much time has passed, then commits and yields: long enough to
 * amortise commits and FTS5 segment flushes over many small files, short enough that a server's searches wait
 * at most about this long for the event loop.
 */
const TRANSACTION_BUDGET_MS = 25;

/**
 * Let queued I/O (a server's searches) run. Without it a lexical-only run, whose awaits all settle as microtasks,
 * would hold the event loop for the whole run.
 */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Stages: walk → classify by stat (no read) → read + hash the rest → pair renames → parse + segment →
 * reuse vectors by embedding-input hash → write each file (its chunks without a vector join the embedding
 * queue) → sweep vanished files → embed the queue, shortest inputs first, one transaction per batch. A crash
 * leaves every file's text either fully old or fully new, and loses at most one batch of vectors: the queue
 * keeps the rest for the next run, which embeds it even when no file changed.
 */
export async function runIndex(options: RunIndexOptions): Promise<IndexSummary> {
  const startedAt = performance.now();
  const { store, ports, onEvent } = options;
  const summary = emptyIndexSummary(
    options.embedder instanceof Promise
      ? (options.modelLabel ?? 'loading')
      : (options.embedder?.id ?? 'none'),
  );
  const walk = ports.walk(options.onlyPaths);
  // Every candidate, refused ones included, ends with exactly one file/unchanged/skipped event, so progress
  // counted over these events reaches exactly 100%.
  const totalFiles = walk.files.length + walk.skipped.length;
  onEvent({ kind: 'start', totalFiles, model: summary.model });
  for (const warning of walk.warnings) onEvent({ kind: 'warning', message: warning });
  for (const skip of walk.skipped) reportSkip(skip.relPath, skip.message);

  const storedStates = store.readDocumentStates(options.onlyPaths);
  const touches: { path: string; sizeBytes: number; mtimeMs: number }[] = [];
  const keep = new Set<string>();
  const pending: PendingFile[] = [];
  const newFiles: { path: string; contentHash: string }[] = [];
  for (const [position, entry] of walk.files.entries()) {
    if (position % YIELD_EVERY_FILES === YIELD_EVERY_FILES - 1) await yieldToEventLoop();
    const stored = storedStates.get(entry.relPath);
    if (!options.reparseAll && isUnchangedByStat({ path: entry.relPath, ...entry }, stored)) {
      keep.add(entry.relPath);
      summary.unchanged++;
      onEvent({ kind: 'unchanged', path: entry.relPath });
      continue;
    }
    const read = ports.readFile(entry);
    if (!read.ok) {
      if (!read.vanished) keep.add(entry.relPath); // still on disk: keep what was indexed before
      reportSkip(entry.relPath, read.message);
      continue;
    }
    keep.add(entry.relPath);
    if (!options.reparseAll && stored && stored.contentHash === read.contentHash) {
      touches.push({ path: entry.relPath, sizeBytes: read.sizeBytes, mtimeMs: read.mtimeMs });
      summary.unchanged++;
      onEvent({ kind: 'unchanged', path: entry.relPath });
      continue;
    }
    if (!stored) newFiles.push({ path: entry.relPath, contentHash: read.contentHash });
    pending.push({ entry, read, stored, renamedFrom: undefined, sourceDocumentId: stored?.id });
  }
  for (const skip of walk.skipped) keep.add(skip.relPath);
  for (const relPath of options.keepPaths ?? []) keep.add(relPath);
  store.touchDocuments(touches);

  const vanished = [...storedStates.values()].filter(
    (s) => !keep.has(s.path) && !walk.unreadableDirs.some((dir) => s.path.startsWith(`${dir}/`)),
  );
  const plan = planRenames({ newFiles, vanished });
  for (const file of pending) {
    file.renamedFrom = plan.renames.get(file.entry.relPath);
    if (file.renamedFrom !== undefined) file.sourceDocumentId = storedStates.get(file.renamedFrom)?.id;
  }

  await processInGroups(pending, options, summary);

  summary.deleted += store.deleteDocuments(plan.deletions);
  for (const path of plan.deletions) onEvent({ kind: 'deleted', path });
  // An index written before schema 3 has chunks without token counts; fill them in from the stored chunks.
  store.backfillWordCounts(ports.segment);
  // An index written before schema 5 has documents without names, which links to them are looked up by.
  store.backfillDocumentNames();
  options.onTextWritten?.();
  const embedder = await modelForTheQueue(options, summary);
  if (embedder) {
    await fillEmbeddingQueue(
      {
        embedder,
        queue: options.queue,
        contextual: options.contextual,
        batchSize: options.batchSize,
        onEvent,
        shouldPause: options.shouldPauseEmbedding,
      },
      summary,
    );
  }
  const counts = options.countRows();
  summary.documents = counts.documents;
  summary.chunks = counts.chunks;
  summary.durationMs = Math.round(performance.now() - startedAt);
  return summary;

  function reportSkip(path: string, message: string): void {
    summary.skipped++;
    onEvent({ kind: 'skipped', path, message });
  }
}

/**
 * Parse and write the files in groups. On an index whose reused vectors may be cut off at the model's limit,
 * those are dropped first (tokenizing, off the main thread), so they are queued and embedded again in windows.
 */
async function processInGroups(pending: PendingFile[], options: RunIndexOptions, summary: IndexSummary) {
  for (let start = 0; start < pending.length; start += FILES_PER_GROUP) {
    const prepared: PreparedFile[] = [];
    for (const [position, file] of pending.slice(start, start + FILES_PER_GROUP).entries()) {
      const parse = options.ports.extract
        ? await options.ports.extract(file.entry.relPath, file.read)
        : { ok: true as const, parsed: options.ports.parse(file.entry.relPath, file.read.text) };
      if (parse.ok) prepared.push(prepareFile(file, parse.parsed, options));
      else refuseFile(file, parse.message, options, summary);
      if (position % YIELD_EVERY_PARSED === YIELD_EVERY_PARSED - 1) await yieldToEventLoop();
    }
    if (options.recheckLongVectors && options.embedder && !(options.embedder instanceof Promise)) {
      await dropCutOffVectors(prepared, options.embedder, options);
    }
    await writeGroup(prepared, options, summary);
    await yieldToEventLoop();
  }
}

/**
 * The model that embeds the queue: the one given, or the one that was loading while the text was written. A
 * load that fails is reported with what the run did write; one that turns out to be no model leaves a
 * lexical-only index, so what was queued for it is dropped.
 */
async function modelForTheQueue(options: RunIndexOptions, summary: IndexSummary): Promise<Embedder | null> {
  if (!(options.embedder instanceof Promise)) {
    // A lexical-only run on an index whose first run queued chunks for a model that never loaded.
    if (!options.embedder && options.queue.size() > 0) options.queue.discardAll();
    return options.embedder;
  }
  let embedder: Embedder | null;
  try {
    embedder = await options.embedder;
  } catch (error) {
    if (options.keepTextWithoutModel) {
      // The server that keeps text without its model says why the model is missing, and when it retries.
      options.onEvent({
        kind: 'warning',
        message:
          'the model is not available yet; the text is indexed and searchable by keyword, and its chunks wait for the model',
      });
      return null;
    }
    options.onEvent({
      kind: 'warning',
      message:
        'the model could not be loaded; every file is indexed and searchable by keyword, and the next ' +
        '`groove index` that can load the model embeds it',
    });
    throw error;
  }
  summary.model = embedder?.id ?? 'none';
  if (!embedder && options.queue.size() > 0) options.queue.discardAll();
  options.onEmbedderReady?.(embedder);
  return embedder;
}

/**
 * A file its extractor refused: skipped, and what was indexed for it before stays (like any refused file). A
 * refused rename target leaves the old path's rows behind under a name that no longer exists, so those go.
 */
function refuseFile(file: PendingFile, message: string, options: RunIndexOptions, summary: IndexSummary) {
  summary.skipped++;
  options.onEvent({ kind: 'skipped', path: file.entry.relPath, message });
  if (file.renamedFrom !== undefined && options.store.deleteDocuments([file.renamedFrom]) > 0) {
    summary.deleted++;
    options.onEvent({ kind: 'deleted', path: file.renamedFrom });
  }
}

function prepareFile(file: PendingFile, parsed: ParsedDocument, options: RunIndexOptions): PreparedFile {
  const { ports, store } = options;
  const sourceId = file.sourceDocumentId;
  const reusable: Map<string, Float32Array> =
    options.embedder && sourceId !== undefined ? store.readReusableVectors(sourceId) : new Map();
  const rows: ChunkRowInput[] = [];
  const missing: number[] = [];
  for (const chunk of parsed.chunks) {
    const embedInput = options.embedder ? toEmbeddingInput(chunk.breadcrumb, chunk.content, options) : null;
    const embedKey = embedInput === null ? null : hashText(embedInput);
    const vector = embedKey === null ? null : (reusable.get(embedKey) ?? null);
    if (embedKey !== null && vector === null) missing.push(rows.length);
    rows.push({
      index: chunk.index,
      heading: chunk.heading,
      level: chunk.level,
      context: chunk.breadcrumb,
      content: chunk.content,
      byteStart: chunk.byteStart,
      byteEnd: chunk.byteEnd,
      tokenCount: chunk.tokenCount,
      qualityScore: chunk.qualityScore,
      embedKey,
      embedChars: embedInput?.length ?? 0,
      vector,
      words: {
        heading: ports.segment(chunk.heading ?? ''),
        context: ports.segment(chunk.breadcrumb),
        content: ports.segment(chunk.content),
      },
    });
  }
  return { ...file, parsed, rows, missing };
}

/**
 * Write a group of files several per transaction (commits, and FTS5 segment flushes, dominate a lexical run when
 * each file commits alone), yielding between transactions so a server's searches are not held up for a whole
 * group. Each file is still all-or-nothing; events are emitted only after the commit.
 */
async function writeGroup(
  files: PreparedFile[],
  options: RunIndexOptions,
  summary: IndexSummary,
): Promise<void> {
  let next = 0;
  while (next < files.length) {
    if (next > 0) await yieldToEventLoop();
    const events: IndexEvent[] = [];
    const startedAt = performance.now();
    options.store.runInTransaction(() => {
      do writeFile(files[next++]!, options, summary, events);
      while (next < files.length && performance.now() - startedAt < TRANSACTION_BUDGET_MS);
    });
    for (const event of events) options.onEvent(event);
  }
}

function writeFile(
  file: PreparedFile,
  options: RunIndexOptions,
  summary: IndexSummary,
  events: IndexEvent[],
) {
  const { parsed, read } = file;
  if (file.rows.length === 0) {
    // Nothing searchable (empty, blank or frontmatter only): skip it, and drop
    // any text an earlier version of the file left in the index, since the file no longer says it.
    summary.skipped++;
    events.push({
      kind: 'skipped',
      path: parsed.path,
      message: `skipped ${displayPath(parsed.path)}: ${NO_TEXT_REASON}`,
    });
    for (const stale of [file.stored ? parsed.path : undefined, file.renamedFrom]) {
      if (stale !== undefined && options.store.deleteDocuments([stale]) > 0) {
        summary.deleted++;
        events.push({ kind: 'deleted', path: stale });
      }
    }
    return;
  }
  options.store.writeDocument(
    {
      path: parsed.path,
      title: parsed.title,
      topic: parsed.topic,
      category: parsed.category,
      date: parsed.metadata.date,
      tags: parsed.metadata.tags,
      metadata: parsed.metadata.extra,
      frontmatterError: parsed.frontmatterError,
      contentHash: read.contentHash,
      sizeBytes: read.sizeBytes,
      mtimeMs: read.mtimeMs,
      links: parsed.links,
    },
    file.rows,
    file.renamedFrom,
  );
  if (parsed.frontmatterError) {
    summary.frontmatterErrors++;
    events.push({
      kind: 'warning',
      message: `${displayPath(parsed.path)}: frontmatter not parsed (${parsed.frontmatterError}); body indexed`,
    });
  }
  const action = file.renamedFrom ? 'renamed' : file.stored ? 'updated' : 'indexed';
  summary[action]++;
  events.push({ kind: 'file', path: parsed.path, action, chunks: file.rows.length, from: file.renamedFrom });
}

function hashText(text: string): string {
  return sha256Hex(text).slice(0, 32);
}
