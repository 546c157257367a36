// The application facade: CLI, MCP and eval call this object and nothing below it. Each method delegates to one
// use case; the index file (session, swap gate, rebuild) is an IndexFile, where it is kept (a SQLite file or a
// shared store) an IndexBackend, and the file ports come from adapters.ts.
import type { ResolvedConfig } from '../config/resolve-config.js';
import type { ReplicaState } from '../core/index-storage.js';
import type { GrooveError } from '../errors.js';
import type { LegProbeResult } from '../measure/leg-verdict.js';
import type { JudgmentBudget } from '../rank/judgment-budget.js';
import type { Embedder, Reranker } from '../types.js';
import { filePorts } from './adapters.js';
import {
  type BestPracticeRequest,
  type BestPracticeResult,
  buildConnectionGraph,
  type DocumentGroup,
  type GetDocumentResult,
  type GraphRequest,
  type GraphResult,
  type GroupMember,
  getBestPractice,
  getDocument,
  listDocumentGroups,
  listTopics,
  membersOf,
  type TopicListing,
} from './browse/index.js';
import { type DoctorReport, runDoctor } from './doctor/index.js';
import {
  createEmbedderFor,
  createRerankerFor,
  embedderIdOf,
  loadFailureOf,
  mayLoadLater,
} from './embedding/index.js';
import {
  type EvalOutcome,
  type EvalOutput,
  type EvalReport,
  type EvalRequest,
  type EvalRunContext,
  type EvaluateOptions,
  type LegProbeOptions,
  probeSnapshotLegs,
  runEval,
  runEvaluation,
} from './eval/index.js';
import type {
  FeedbackInput,
  FeedbackReceipt,
  GoldenBuildOptions,
  GoldenBuildResult,
  GoldenImportOptions,
  GoldenImportResult,
  GoldenStampResult,
} from './golden/index.js';
import {
  type IndexBackend,
  IndexFile,
  type IndexOptions,
  type IndexSummary,
  indexKnowledgeBase,
  openIndexBackend,
  type ReplicaEvents,
  type StatusReport,
} from './indexing/index.js';
import { evalContextOf, type WithReadSnapshot } from './kb-eval-context.js';
import { KbGolden } from './kb-golden.js';
import {
  checkSearchRequest,
  type ReadSnapshot,
  type SearchResponse,
  SearchSession,
  type SessionView,
  type SnapshotMemory,
} from './search/index.js';
import { runTune, type TuneEvent, type TuneOptions, type TuneOutcome } from './tune/index.js';
import { KbUsage } from './usage/index.js';

export type { IndexOptions, StatusReport } from './indexing/index.js';

/** Seams for the composition root; tests inject a deterministic embedder here. */
export interface KnowledgeBaseDeps {
  createEmbedder?: (config: ResolvedConfig) => Promise<Embedder | null>;
  createReranker?: (config: ResolvedConfig) => Promise<Reranker | null>;
  /** The clock for eval runs, golden sidecars and feedback (tests move it to age a golden set). */
  now?: () => Date;
  /**
   * The caller only reads (search, status, eval, tune, graph): on a shared store it then reads through the
   * machine's cached working copy, brought up to date from the commits since, instead of reading the KB whole.
   */
  readOnly?: boolean;
  /** Where the search snapshots report what `[search] memory_budget_mb` left out (serve: its log). */
  onNotice?: (line: string) => void;
}

export class KnowledgeBase {
  readonly kbPath: string;
  readonly dbPath: string;
  /** The configuration in effect: the caller's, following the index's model once an index was read. */
  private settings: ResolvedConfig;
  private embedderPromise: Promise<Embedder | null> | null = null;
  private readonly file: IndexFile<SearchSession>;
  private readonly createEmbedder: (config: ResolvedConfig) => Promise<Embedder | null>;
  private readonly createReranker: (config: ResolvedConfig) => Promise<Reranker | null>;
  private readonly now: () => Date;
  /** Where the index is kept: a SQLite file, or a shared store and its working copy. */
  private readonly backend: IndexBackend;
  private readonly golden: KbGolden;
  /** What agents fetched of the documents searches served them under a task id. */
  readonly usage: KbUsage;

  constructor(config: ResolvedConfig, deps: KnowledgeBaseDeps = {}) {
    this.settings = config;
    this.now = deps.now ?? (() => new Date());
    this.createEmbedder = deps.createEmbedder ?? createEmbedderFor;
    this.createReranker = deps.createReranker ?? createRerankerFor;
    this.backend = openIndexBackend(config, { readOnly: deps.readOnly });
    this.kbPath = this.backend.kbPath;
    this.dbPath = this.backend.dbPath;
    this.file = new IndexFile(this.dbPath, async () => {
      await this.backend.ensureRead();
      const session = await SearchSession.open(this.dbPath, this.settings, {
        embedder: (followed) => this.embedder(followed),
        reranker: (followed) => this.createReranker(followed),
        now: this.now,
        onNotice: deps.onNotice,
        lineRange: filePorts.lineRange,
      });
      this.settings = session.config;
      return session;
    });
    const { kbPath, dbPath, backend, file, now } = this;
    const settings = () => this.settings;
    this.golden = new KbGolden({ kbPath, dbPath, backend, file, now, settings });
    const judgmentsReadable = backend.kind !== 'postgres';
    this.usage = new KbUsage({ kbPath, dbPath, now, settings, judgmentsReadable, onNotice: deps.onNotice });
  }

  /** The configuration in effect (after following the model an index records). */
  get config(): ResolvedConfig {
    return this.settings;
  }

  /** Index the KB incrementally; `force` rebuilds into a new file and swaps it in only when complete. */
  index(options: IndexOptions = {}): Promise<IndexSummary> {
    const settings = () => this.settings;
    const follow = (followed: ResolvedConfig) => {
      this.settings = followed;
    };
    const { file, backend } = this;
    return indexKnowledgeBase({ file, backend, settings, follow, embedder: () => this.embedder() }, options);
  }

  /** Counts and identity of the index; never creates one. On a shared store, of the working copy once read. */
  status(): StatusReport {
    return { ...this.backend.status(this.statusSettings()), usage: this.usage.counts() };
  }

  private statusSettings() {
    return { noteExtensions: this.settings.parsers.extensions, configuredModel: embedderIdOf(this.settings) };
  }

  /** Whether the index lives in a shared store ([storage] backend = "postgres"). */
  get sharedStore(): boolean {
    return this.backend.kind === 'postgres';
  }

  /**
   * `groove serve` on a shared store: contend for the writer role and follow the KB's commits (see
   * SharedIndex.startReplica). Refused on a SQLite index, whose server is the only one.
   */
  startReplica(events: ReplicaEvents): Promise<void> {
    return this.backend.startReplica(events);
  }

  /** The replica's role and lag for /healthz; null on a SQLite index. */
  replicaState(): ReplicaState | null {
    return this.backend.replicaState();
  }

  /** `groove status` on either backend: a shared store is read into the working copy first. */
  async describe(): Promise<StatusReport> {
    const outsideSwap = <T>(work: () => Promise<T>) => this.file.outsideSwap(work);
    const report = await this.backend.describe(() => this.statusSettings(), outsideSwap);
    return { ...report, usage: this.usage.counts() };
  }

  /** What the search snapshots hold under `[search] memory_budget_mb` (opens the search session). */
  searchMemory(): Promise<SnapshotMemory> {
    return this.file.withSession(async (session) => session.memory());
  }

  /** `groove doctor`: integrity and servability checks on a read-only connection; changes nothing. */
  doctor(): DoctorReport {
    const refused = this.backend.refusal('`groove doctor`');
    if (refused) throw refused;
    const input = { kbPath: this.kbPath, dbPath: this.dbPath, config: this.golden.settingsFor('read') };
    return runDoctor(input, { read: filePorts.readFile, now: this.now });
  }

  /** Run the search pipeline against the index (opened and model-checked once per facade). */
  async search(request: unknown): Promise<SearchResponse> {
    // A request that can never be answered is a usage error, with or without an index.
    const checked = checkSearchRequest(request);
    return this.file.withSession((session) => session.search(checked));
  }

  /** Read through the open search session (a search over several KBs holds each one's view at once). */
  withSearchView<T>(read: (view: SessionView) => Promise<T>): Promise<T> {
    return this.file.withSession((session) => read(session.view()));
  }

  /** get_document: the text of one indexed file by its exact indexed path (misses are data). */
  getDocument(relPath: string): Promise<GetDocumentResult> {
    return this.file.withSession(async (session) =>
      getDocument(relPath, {
        kbPath: this.kbPath,
        enabledExtensions: this.settings.parsers.extensions,
        browser: session.view().browser,
        config: this.settings,
      }),
    );
  }

  /** get_best_practice: the document the configured templates name for a target (misses are data). */
  getBestPractice(request: BestPracticeRequest): Promise<BestPracticeResult> {
    return this.file.withSession(async (session) =>
      getBestPractice(request, this.settings.bestPractice.pathTemplates, {
        kbPath: this.kbPath,
        enabledExtensions: this.settings.parsers.extensions,
        browser: session.view().browser,
      }),
    );
  }

  /** The folder groups MCP offers as resources: the root and folders one or two levels deep. */
  documentGroups(): Promise<DocumentGroup[]> {
    return this.file.withSession(async (session) =>
      listDocumentGroups(session.view().browser.listTopicRows()),
    );
  }

  /** The documents beneath one folder prefix ('' = all), or null when there are none. */
  groupMembers(prefix: string): Promise<{ members: GroupMember[]; more: number } | null> {
    return this.file.withSession(async (session) =>
      membersOf(session.view().browser.listTopicRows(), prefix),
    );
  }

  /** list_topics: category/topic groups with counts and the folder tree below them. */
  listTopics(): Promise<TopicListing> {
    return this.file.withSession(async (session) => listTopics(session.view().browser.listTopicRows()));
  }

  /** get_connection_graph: BFS over vector neighbours of one document (misses are data). */
  connectionGraph(request: GraphRequest): Promise<GraphResult> {
    return this.file.withSession(async (session) => buildConnectionGraph(session.view(), request));
  }

  /** `groove eval`: measure, show, save (TREC files, HTML report, history) and gate — the eval feature's run. */
  runEval(request: EvalRequest, output?: EvalOutput): Promise<EvalOutcome> {
    return runEval(request, this.evalContext(null), output);
  }

  /**
   * `groove eval --kb a --kb b`: the same run against the search across the KBs `names` (this KB first), read
   * through `withSnapshot` (withCombinedEvalSnapshot). This KB's settings and clock apply to the whole run; the
   * history is the KB set's own.
   */
  runEvalAcross(
    names: readonly string[],
    withSnapshot: WithReadSnapshot,
    request: EvalRequest,
    output?: EvalOutput,
  ): Promise<EvalOutcome> {
    return runEval(request, this.evalContext({ names, withSnapshot }), output);
  }

  /** The measuring step of `groove eval` alone: the report, neither shown nor saved. */
  evaluate(options: EvaluateOptions = {}): Promise<EvalReport> {
    return runEvaluation(options, this.evalContext(null));
  }

  /** This KB's settings, clock and files; the snapshot and history of this KB, or of the KB set `across`. */
  private evalContext(
    across: { names: readonly string[]; withSnapshot: WithReadSnapshot } | null,
  ): EvalRunContext {
    const { kbPath, settings, now } = this;
    const withReadSnapshot: WithReadSnapshot = (work) => this.withReadSnapshot(work);
    const goldenSettings = this.golden.settingsFor('read');
    return evalContextOf({ kbPath, settings, goldenSettings, now, withReadSnapshot }, across);
  }

  /** One read snapshot of the index, as search, eval and tune read it. */
  withReadSnapshot<T>(work: (snapshot: ReadSnapshot) => Promise<T>): Promise<T> {
    return this.file.withSession((session) => session.withReadSnapshot(work));
  }

  /** The leg probe on its own (tune runs it before sweeping): one query from the index through every leg. */
  probeLegs(options: LegProbeOptions = { rerank: false }): Promise<LegProbeResult> {
    return this.withReadSnapshot((snapshot) => probeSnapshotLegs(snapshot, options));
  }

  /** A new client's record_feedback budget: [feedback] judgments_per_minute, on this knowledge base's clock. */
  newFeedbackBudget(): JudgmentBudget {
    return this.golden.newFeedbackBudget();
  }

  /** record_feedback: store one serve's judgments in the index file (kept across re-index and --force). */
  recordFeedback(input: FeedbackInput, options: { budget?: JudgmentBudget } = {}): Promise<FeedbackReceipt> {
    return this.golden.recordFeedback(input, options.budget ?? null);
  }

  /** `groove eval golden build --from-feedback`: the four filters, then the golden YAML and its sidecar. */
  buildGolden(options: GoldenBuildOptions = {}): Promise<GoldenBuildResult> {
    return this.golden.build(options);
  }

  /** `groove eval golden stamp`: write the sidecar dating the golden set against the index as it is now. */
  stampGolden(options: { golden?: string } = {}): Promise<GoldenStampResult> {
    return this.golden.stamp(options);
  }

  /** `groove eval golden import`: a golden YAML from TREC/BEIR query and qrels files (no index needed). */
  importGolden(options: GoldenImportOptions): GoldenImportResult {
    return this.golden.import(options);
  }

  /**
   * Load the model once, following the model an existing index records, so the first call does not pay for it.
   * A model that may load later (not downloaded yet, hub or endpoint unreachable) is returned as its load error:
   * the server answers by keyword meanwhile and tries again (retryModel). Any other load failure is thrown.
   */
  async warmUp(): Promise<GrooveError | null> {
    if (!(await this.backend.hasIndex())) {
      return this.embedder().then(
        () => null,
        (error: unknown) => {
          if (mayLoadLater(error)) return error;
          throw error;
        },
      );
    }
    return this.file.withSession(async (session) => {
      // A server starts only with its models: a search session would answer without them (failed legs).
      const { embedder, reranker } = session.view();
      const rerankerFailure = loadFailureOf(reranker);
      if (rerankerFailure) throw rerankerFailure.cause ?? rerankerFailure;
      const embedderFailure = loadFailureOf(embedder);
      const cause = embedderFailure ? (embedderFailure.cause ?? embedderFailure) : null;
      if (cause !== null && !mayLoadLater(cause)) throw cause;
      session.preload();
      return cause;
    });
  }

  /**
   * Try the embedding model again after it could not load: resolves once it loads (the next read opens a session
   * with it), rejects with the load error. Searches keep their keyword-only session while the model loads.
   */
  async retryModel(): Promise<void> {
    const loaded = await this.embedderPromise?.then(
      () => true,
      () => false,
    );
    if (loaded) return;
    const embedder = await this.createEmbedder(this.settings);
    this.embedderPromise = Promise.resolve(embedder);
    await this.file.reopen();
  }

  /** `groove tune`: sweep the fusion grid inside one read snapshot; applies nothing. */
  tune(options: TuneOptions = {}, onEvent?: (event: TuneEvent) => void): Promise<TuneOutcome> {
    const withSnapshot: WithReadSnapshot = (work) => this.withReadSnapshot(work);
    const ports = { readFile: filePorts.readFile, withSnapshot, onEvent, nowMs: () => performance.now() };
    return runTune(options, { config: this.golden.settingsFor('read'), kbPath: this.kbPath, ports });
  }

  /** The embedder for this configuration (or `config`, the one a search session follows), loaded once per facade. */
  embedder(config: ResolvedConfig = this.settings): Promise<Embedder | null> {
    this.embedderPromise ??= this.createEmbedder(config);
    return this.embedderPromise;
  }

  async close(): Promise<void> {
    this.usage.close();
    await this.file.close();
    await this.backend.close();
    const embedder = await this.embedderPromise?.catch(() => null);
    await embedder?.close();
  }
}

export function openKnowledgeBase(config: ResolvedConfig, deps?: KnowledgeBaseDeps): KnowledgeBase {
  return new KnowledgeBase(config, deps);
}
