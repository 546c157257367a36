// The application facade and composition root: CLI, MCP and eval call this object and nothing below it.
import fs from 'node:fs';
import path from 'node:path';
import type { ResolvedConfig } from '../config/resolve-config.js';
import { GrooveError } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { readCheckedFile } from '../fs/checked-read.js';
import { gatePathFor, withFileGate } from '../store/file-gate.js';
import type { Embedder, Reranker } from '../types.js';
import { buildConnectionGraph, type GraphRequest, type GraphResult } from './browse/connection-graph.js';
import { type GetDocumentResult, getDocument } from './browse/get-document.js';
import { listTopics, type TopicListing } from './browse/list-topics.js';
import {
  type EvalReport,
  type EvaluateOptions,
  type HistoryWriteResult,
  recordEvalRun,
  runEvaluation,
} from './eval/evaluator.js';
import { type LegProbeOptions, type LegProbeResult, pickProbeSample, probeLegs } from './eval/leg-probe.js';
import { type FeedbackInput, type FeedbackReceipt, recordFeedback } from './golden/feedback.js';
import {
  buildGoldenFromFeedback,
  type GoldenBuildOptions,
  type GoldenBuildResult,
  type GoldenPorts,
  type GoldenStampResult,
  stampGolden,
} from './golden/golden-build.js';
import { carryFeedbackInto, withFeedbackDatabase, withFeedbackGate } from './index/feedback-database.js';
import { checkIndexLocation, IndexDatabase, rebuildPathOf } from './index/index-database.js';
import type { IndexEventSink, IndexSummary } from './index/index-events.js';
import { runIndex } from './index/indexer.js';
import { buildIndexerPorts } from './index/indexer-ports.js';
import { createEmbedderFor, createRerankerFor } from './models/embedder-factory.js';
import {
  adoptIndexModel,
  assertSameIdentity,
  type IndexIdentity,
  identityFromMeta,
  identityOf,
} from './models/model-identity.js';
import { SearchSession } from './search/search-session.js';
import type { SearchResponse } from './search/search-types.js';
import { checkSearchRequest } from './search/searcher.js';
import { runTune, type TuneEvent, type TuneOptions, type TuneOutcome } from './tune/tuner.js';

/** Seams for the composition root; tests inject a deterministic embedder here. */
export interface KnowledgeBaseDeps {
  createEmbedder?: (config: ResolvedConfig) => Promise<Embedder | null>;
  createReranker?: (config: ResolvedConfig) => Promise<Reranker | null>;
  /** The clock for eval runs, golden sidecars and feedback (tests move it to age a golden set). */
  now?: () => Date;
}

export interface IndexOptions {
  force?: boolean;
  onEvent?: IndexEventSink;
}

export interface StatusReport {
  kbPath: string;
  dbPath: string;
  dbSizeBytes: number;
  documents: number;
  chunks: number;
  vectors: number;
  model: string;
  provider: string;
  dimension: number;
  contextMode: string;
  lastIndexedAt: string | null;
  frontmatterErrors: number;
  schemaVersion: number;
}

/** Resolve kb and db paths or explain which flag is missing. */
export function requireKbPaths(config: ResolvedConfig): { kbPath: string; dbPath: string } {
  if (!config.kbPath) {
    throw new GrooveError('KB_PATH_MISSING', 'no knowledge base given', {
      hint: 'pass --kb-path DIR or set kb_path in groove.toml',
    });
  }
  const stat = fs.statSync(config.kbPath, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) {
    throw new GrooveError('KB_NOT_FOUND', `knowledge base "${config.kbPath}" is not a directory`, {
      hint: 'check --kb-path (it must be an existing folder of notes)',
    });
  }
  const dbPath = config.dbPath ?? path.join(path.dirname(config.kbPath), '.groove.db');
  checkIndexLocation(config.kbPath, dbPath);
  return { kbPath: config.kbPath, dbPath };
}

export class KnowledgeBase {
  readonly config: ResolvedConfig;
  readonly kbPath: string;
  readonly dbPath: string;
  private embedderPromise: Promise<Embedder | null> | null = null;
  private sessionPromise: Promise<SearchSession> | null = null;
  /** Sessions on files another process replaced: kept open on purpose (see currentSession). */
  private readonly retiredSessions: SearchSession[] = [];
  /** Set while a finished rebuild is being swapped in; reads wait for it. */
  private swapping: Promise<void> | null = null;
  /** Reads using the current session; the swap waits for them before closing it. */
  private activeReads = 0;
  private readsDrained: (() => void)[] = [];

  private readonly createEmbedder: (config: ResolvedConfig) => Promise<Embedder | null>;
  private readonly createReranker: (config: ResolvedConfig) => Promise<Reranker | null>;
  private readonly now: () => Date;

  constructor(config: ResolvedConfig, deps: KnowledgeBaseDeps = {}) {
    this.config = config;
    this.now = deps.now ?? (() => new Date());
    this.createEmbedder = deps.createEmbedder ?? createEmbedderFor;
    this.createReranker = deps.createReranker ?? createRerankerFor;
    const paths = requireKbPaths(config);
    this.kbPath = paths.kbPath;
    this.dbPath = paths.dbPath;
  }

  /** Index the KB incrementally; `force` rebuilds into a new file and swaps it in only when complete. */
  async index(options: IndexOptions = {}): Promise<IndexSummary> {
    try {
      const lock = IndexDatabase.lockForWriting(this.dbPath);
      try {
        return options.force ? await this.rebuild(options) : await this.update(options);
      } finally {
        lock.release();
      }
    } catch (error) {
      throw IndexDatabase.explainFailure(error, this.dbPath);
    }
  }

  private async update(options: IndexOptions): Promise<IndexSummary> {
    const database = IndexDatabase.open(this.dbPath, { create: true });
    try {
      const stored = database.identity();
      if (stored && database.documentCount() > 0) adoptIndexModel(this.config, stored);
      const embedder = await this.embedder();
      const wanted = identityOf(embedder, this.config);
      if (stored && database.documentCount() > 0) assertSameIdentity(stored, wanted, this.dbPath);
      return await this.runOn(database, embedder, wanted, options);
    } finally {
      database.close();
    }
  }

  private async rebuild(options: IndexOptions): Promise<IndexSummary> {
    IndexDatabase.assertReplaceable(this.dbPath); // before any work: only groove's own index is ever replaced
    const embedder = await this.embedder();
    const wanted = identityOf(embedder, this.config);
    const tempPath = rebuildPathOf(this.dbPath);
    IndexDatabase.remove(tempPath);
    try {
      const database = IndexDatabase.open(tempPath, { create: true });
      let summary: IndexSummary;
      try {
        summary = await this.runOn(database, embedder, wanted, options);
      } finally {
        database.close();
      }
      await this.swapIn(tempPath, options.onEvent);
      return summary;
    } catch (error) {
      IndexDatabase.remove(tempPath); // a half-built or unswapped copy is never used; do not leave it behind
      throw error;
    }
  }

  /**
   * Move a finished rebuild over the live index. The search session still reads the old file, so new reads wait,
   * running ones finish, and the session is closed before the rename, so no read of this process sees the old
   * file once the new one is in place. The next read opens the new file. The copy of the judgments and the
   * rename happen under the feedback gate, so no process writes a judgment into the old file in between.
   */
  private async swapIn(tempPath: string, onEvent?: IndexEventSink): Promise<void> {
    let finish = () => {};
    this.swapping = new Promise<void>((resolve) => {
      finish = resolve;
    });
    try {
      if (this.activeReads > 0) await new Promise<void>((resolve) => this.readsDrained.push(resolve));
      const session = await this.sessionPromise?.catch(() => null);
      this.sessionPromise = null;
      session?.close();
      await withFeedbackGate(this.dbPath, () => {
        this.carryFeedback(tempPath, onEvent);
        IndexDatabase.replace(tempPath, this.dbPath);
      });
    } finally {
      this.swapping = null;
      finish();
    }
  }

  /**
   * Judgments are not derived from the files, so the rebuilt file gets the live file's copy. Feedback writes of
   * this process wait for the swap like reads do, those of other processes for the feedback gate. If the old
   * file cannot be read (the usual reason for --force), the rebuild still goes ahead and the old file is kept
   * beside it for recovery.
   */
  private carryFeedback(tempPath: string, onEvent?: IndexEventSink): void {
    try {
      carryFeedbackInto(tempPath, this.dbPath);
    } catch (error) {
      const keptAt = `${this.dbPath}.before-rebuild`;
      fs.copyFileSync(this.dbPath, keptAt);
      onEvent?.({
        kind: 'warning',
        message: `recorded feedback could not be copied from the old index (${(error as Error).message}); the old file is kept at "${keptAt}"`,
      });
    }
  }

  private async runOn(
    database: IndexDatabase,
    embedder: Embedder | null,
    identity: IndexIdentity,
    options: IndexOptions,
  ): Promise<IndexSummary> {
    const policy = database.chunkPolicyFor(this.config);
    const storedPolicy = database.storedChunkPolicy();
    // Record the policy up front on a fresh index, so a first run killed midway is not re-parsed next time.
    if (storedPolicy === undefined) database.recordChunkPolicy(policy);
    const reparseAll = storedPolicy !== undefined && storedPolicy !== policy && database.documentCount() > 0;
    database.writeIdentity(identity);
    const summary = await runIndex({
      store: database.documents,
      ports: buildIndexerPorts(this.kbPath, this.config),
      embedder,
      reparseAll,
      contextual: this.config.contextual.enabled,
      maxInputChars: this.config.embedding.maxInputChars,
      batchSize: this.config.embedding.batchSize,
      onEvent: options.onEvent ?? (() => {}),
      countRows: () => database.counts(),
    });
    database.finishRun(policy);
    return summary;
  }

  /** Counts and identity of the index; never creates one. */
  status(): StatusReport {
    const database = IndexDatabase.open(this.dbPath, { create: false });
    try {
      const meta = database.meta();
      const identity = identityFromMeta(meta);
      const counts = database.counts();
      return {
        kbPath: this.kbPath,
        dbPath: this.dbPath,
        dbSizeBytes: database.sizeBytes(),
        documents: counts.documents,
        chunks: counts.chunks,
        vectors: counts.vectors,
        model: identity?.model ?? 'none',
        provider: identity?.provider ?? 'none',
        dimension: identity?.dimension ?? 0,
        contextMode: identity?.contextMode ?? 'off',
        lastIndexedAt: meta.last_indexed_at ?? null,
        frontmatterErrors: counts.frontmatterErrors,
        schemaVersion: Number(meta.schema_version ?? 0),
      };
    } finally {
      database.close();
    }
  }

  /** Run the search pipeline against the index (opened and model-checked once per facade). */
  async search(request: unknown): Promise<SearchResponse> {
    // A request that can never be answered is a usage error, with or without an index.
    const checked = checkSearchRequest(request);
    return this.withSession((session) => session.search(checked));
  }

  /** get_document: the text of one indexed file by its exact indexed path (misses are data). */
  getDocument(relPath: string): Promise<GetDocumentResult> {
    return this.withSession(async (session) =>
      getDocument(relPath, {
        kbPath: this.kbPath,
        enabledExtensions: this.config.parsers.enabled,
        browser: session.view().browser,
      }),
    );
  }

  /** list_topics: category/topic groups with counts and the folder tree below them. */
  listTopics(): Promise<TopicListing> {
    return this.withSession(async (session) => listTopics(session.view().browser.listTopicRows()));
  }

  /** get_connection_graph: BFS over vector neighbours of one document (misses are data). */
  connectionGraph(request: GraphRequest): Promise<GraphResult> {
    return this.withSession(async (session) => buildConnectionGraph(session.view(), request));
  }

  /** `groove eval`: score the golden set inside one read snapshot and compare with the previous run. */
  evaluate(options: EvaluateOptions = {}): Promise<EvalReport> {
    return runEvaluation(options, {
      config: this.config,
      kbPath: this.kbPath,
      ports: {
        readFile: readCheckedFile,
        withSnapshot: (work) =>
          this.withSession((session) =>
            session.withReadSnapshot((snapshot) =>
              work({ ...snapshot, probeSample: () => pickProbeSample(session.view().reader) }),
            ),
          ),
        now: this.now,
      },
    });
  }

  /** The leg probe on its own (tune runs it before sweeping): one query from the index through every leg. */
  probeLegs(options: LegProbeOptions = { rerank: false }): Promise<LegProbeResult> {
    return this.withSession((session) =>
      session.withReadSnapshot((snapshot) =>
        probeLegs((request) => snapshot.search(request), pickProbeSample(session.view().reader), options),
      ),
    );
  }

  /** record_feedback: store one serve's judgments in the index file (kept across re-index and --force). */
  recordFeedback(input: FeedbackInput): Promise<FeedbackReceipt> {
    return this.outsideSwap(() =>
      withFeedbackDatabase(this.dbPath, (database) => recordFeedback(input, { ...database, now: this.now })),
    );
  }

  /** `groove eval golden build --from-feedback`: the four filters, then the golden YAML and its sidecar. */
  buildGolden(options: GoldenBuildOptions = {}): Promise<GoldenBuildResult> {
    return this.outsideSwap(() =>
      withFeedbackDatabase(this.dbPath, (database) =>
        buildGoldenFromFeedback(options, {
          config: this.config,
          kbPath: this.kbPath,
          ports: {
            ...this.goldenPorts(database.counts),
            readServes: database.readServes,
            isIndexed: database.isIndexed,
          },
        }),
      ),
    );
  }

  /** `groove eval golden stamp`: write the sidecar dating the golden set against the index as it is now. */
  stampGolden(options: { golden?: string } = {}): Promise<GoldenStampResult> {
    return this.outsideSwap(() =>
      withFeedbackDatabase(this.dbPath, (database) =>
        stampGolden(options, {
          config: this.config,
          kbPath: this.kbPath,
          ports: this.goldenPorts(database.counts),
        }),
      ),
    );
  }

  private goldenPorts(counts: GoldenPorts['counts']): GoldenPorts {
    return { readFile: readCheckedFile, write: writeFileAtomic, counts, now: this.now };
  }

  /** Run work that opens its own connection, never across a rebuild swap (it waits, and the swap waits for it). */
  private async outsideSwap<T>(work: () => Promise<T>): Promise<T> {
    while (this.swapping) await this.swapping;
    this.activeReads++;
    try {
      return await work();
    } finally {
      this.activeReads--;
      if (this.activeReads === 0) for (const resolve of this.readsDrained.splice(0)) resolve();
    }
  }

  /** Save an evaluated run to `<kb>/.groove-eval-history.json` (null with --no-history); evals take turns on its gate. */
  recordEvalRun(report: EvalReport): Promise<HistoryWriteResult | null> {
    return recordEvalRun(report, {
      historySize: this.config.eval.historySize,
      read: readCheckedFile,
      write: writeFileAtomic,
      withGate: (historyPath, work) =>
        withFileGate(gatePathFor(historyPath), work, { guards: `the eval history "${historyPath}"` }),
    });
  }

  /** Load the model once, following the model an existing index records, so the first call does not pay for it. */
  async warmUp(): Promise<void> {
    if (fs.existsSync(this.dbPath)) await this.withSession(async (session) => session.preload());
    else await this.embedder();
  }

  /** `groove tune`: sweep the fusion grid inside one read snapshot; applies nothing. */
  tune(options: TuneOptions = {}, onEvent?: (event: TuneEvent) => void): Promise<TuneOutcome> {
    const withSnapshot: Parameters<typeof runTune>[1]['ports']['withSnapshot'] = (work) =>
      this.withSession(async (session) => {
        const embedder = await this.embedder();
        const { reader, vectors } = session.view();
        return session.withReadSnapshot(({ model, readCorpus }) =>
          work({ model, readCorpus, reader, vectors, embedder }),
        );
      });
    const ports = { readFile: readCheckedFile, withSnapshot, onEvent, nowMs: () => performance.now() };
    return runTune(options, { config: this.config, kbPath: this.kbPath, ports });
  }

  /** Run one read on the session, never across a rebuild swap (see swapIn). */
  private async withSession<T>(read: (session: SearchSession) => Promise<T>): Promise<T> {
    while (this.swapping) await this.swapping;
    this.activeReads++;
    try {
      return await read(await this.currentSession());
    } finally {
      this.activeReads--;
      if (this.activeReads === 0) for (const resolve of this.readsDrained.splice(0)) resolve();
    }
  }

  /**
   * The open session, reopened when another process (`groove index --force`) renamed a new file over the index.
   * The stale session is retired (its snapshots dropped) and left open until process exit. SQLite neither
   * checkpoints nor deletes the WAL of a database file that was renamed away, so that connection cannot touch
   * the new file's `<index>-wal`.
   */
  private async currentSession(): Promise<SearchSession> {
    this.sessionPromise ??= this.openSession();
    const opening = this.sessionPromise;
    const session = await opening;
    if (!session.replacedOnDisk()) return session;
    if (this.sessionPromise === opening) {
      session.retire();
      this.retiredSessions.push(session);
      this.sessionPromise = this.openSession();
    }
    return this.sessionPromise ?? this.currentSession();
  }

  /** Open a session; a failed open is forgotten, so the next read tries again. */
  private openSession(): Promise<SearchSession> {
    const guarded: Promise<SearchSession> = SearchSession.open(this.dbPath, this.config, {
      embedder: () => this.embedder(),
      reranker: (config) => this.createReranker(config),
    }).catch((error: unknown) => {
      if (this.sessionPromise === guarded) this.sessionPromise = null;
      throw error;
    });
    return guarded;
  }

  /** The embedder for this configuration, loaded once per facade. */
  embedder(): Promise<Embedder | null> {
    this.embedderPromise ??= this.createEmbedder(this.config);
    return this.embedderPromise;
  }

  async close(): Promise<void> {
    const session = await this.sessionPromise?.catch(() => null);
    session?.close();
    const embedder = await this.embedderPromise?.catch(() => null);
    await embedder?.close();
  }
}

export function openKnowledgeBase(config: ResolvedConfig, deps?: KnowledgeBaseDeps): KnowledgeBase {
  return new KnowledgeBase(config, deps);
}
