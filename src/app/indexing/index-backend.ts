// Where a knowledge base's index is kept: a local SQLite file, or a shared PostgreSQL store read into a SQLite
// working copy. Both are one IndexBackend: the facade asks its backend what it serves, and how an indexing pass,
// a status read or a replica runs on it; the shared store's refusals are said here and nowhere else.
import type { ResolvedConfig } from '../../config/resolve-config.js';
import type { ReplicaState } from '../../core/index-storage.js';
import { GrooveError } from '../../errors.js';
import { embedderIdOf } from '../embedding/index.js';
import { IndexDatabase } from './index-database.js';
import type { IndexSummary } from './index-events.js';
import { assertIndexOwner, type KbIdentity, kbIdentityOf } from './index-owner.js';
import { readIndexStatus, requireKbPaths, type StatusReport, type StatusSettings } from './index-status.js';
import { type ReplicaEvents, SharedIndex } from './shared-index.js';

/** The two passes an indexing run makes on the backend's index file: incremental, or a rebuild swapped in. */
export interface IndexPasses {
  update(): Promise<IndexSummary>;
  rebuild(): Promise<IndexSummary>;
}

/** Runs `work` where no rebuild is being swapped in (IndexFile.outsideSwap). */
export type OutsideSwap = <T>(work: () => Promise<T>) => Promise<T>;

export interface IndexBackend {
  readonly kind: 'sqlite' | 'postgres';
  readonly kbPath: string;
  /** The SQLite file every code path runs on: the index itself, or the shared store's working copy. */
  readonly dbPath: string;
  /** The KB the index records as its owner; null on a shared store, whose KB is its `[storage] kb`. */
  readonly owner: KbIdentity | null;
  /** Why `what` is refused on this backend (STORAGE_UNSUPPORTED on a shared store), or null when it is served. */
  refusal(what: string): GrooveError | null;
  /** Make the index file readable before a session opens on it (a shared store is read into the working copy). */
  ensureRead(): Promise<void>;
  /** Whether there is an index to open (a shared store is read once first; its KB may not exist yet). */
  hasIndex(): Promise<boolean>;
  /** Counts and identity of the index, never creating one; a shared store's only once it was read. */
  status(settings: StatusSettings): StatusReport;
  /** `groove status`: the status once the index is readable (`settings` are read then). */
  describe(settings: () => StatusSettings, outsideSwap: OutsideSwap): Promise<StatusReport>;
  /** Before any model work of a run with `settings`: make room for vectors when they name a model. */
  prepareForModel(settings: ResolvedConfig): Promise<void>;
  /** Run one indexing pass (`force`: the rebuild); a shared store reads itself before and is written back after. */
  write(force: boolean, passes: IndexPasses): Promise<IndexSummary>;
  /** `groove serve` on a shared store: contend for the writer role and follow the KB's commits. */
  startReplica(events: ReplicaEvents): Promise<void>;
  /** The replica's role and lag for /healthz; null when not serving as one. */
  replicaState(): ReplicaState | null;
  close(): Promise<void>;
}

/** The commands a shared store does not serve yet: each refuses before doing anything. */
export function unsupportedOnSharedStore(what: string): GrooveError {
  return new GrooveError(
    'STORAGE_UNSUPPORTED',
    `${what} is not supported yet with [storage] backend = "postgres"`,
    {
      hint: 'use [storage] backend = "sqlite" for it; index, search, status, eval, tune and the browse commands work on postgres',
    },
  );
}

/**
 * The backend `config.storage` names. `readOnly`: the caller only reads, so a shared store reads through the
 * machine's cached working copy. A local index that belongs to another KB is refused here, before any work.
 */
export function openIndexBackend(config: ResolvedConfig, options: { readOnly?: boolean } = {}): IndexBackend {
  const shared = SharedIndex.of(config, options);
  if (shared) return new SharedBackend(shared, requireKbPaths({ ...config, dbPath: shared.dbPath }).kbPath);
  const { kbPath, dbPath } = requireKbPaths(config);
  const owner = kbIdentityOf(kbPath, config.kbName);
  assertIndexOwner(dbPath, kbPath, owner);
  return new LocalBackend(kbPath, dbPath, owner);
}

/** An index file of this machine: it serves everything, and its server is the only one. */
class LocalBackend implements IndexBackend {
  readonly kind = 'sqlite';

  constructor(
    readonly kbPath: string,
    readonly dbPath: string,
    readonly owner: KbIdentity,
  ) {}

  refusal(): null {
    return null;
  }

  async ensureRead(): Promise<void> {}

  async hasIndex(): Promise<boolean> {
    return IndexDatabase.exists(this.dbPath);
  }

  status(settings: StatusSettings): StatusReport {
    return readIndexStatus(this.kbPath, this.dbPath, settings, { backend: 'sqlite', location: this.dbPath });
  }

  async describe(settings: () => StatusSettings): Promise<StatusReport> {
    return this.status(settings());
  }

  async prepareForModel(): Promise<void> {}

  write(force: boolean, passes: IndexPasses): Promise<IndexSummary> {
    return force ? passes.rebuild() : passes.update();
  }

  startReplica(): Promise<void> {
    throw new GrooveError('INTERNAL', 'replicas need [storage] backend = "postgres"');
  }

  replicaState(): null {
    return null;
  }

  async close(): Promise<void> {}
}

/** A KB in a shared store ([storage] backend = "postgres"), run on its SQLite working copy (SharedIndex). */
class SharedBackend implements IndexBackend {
  readonly kind = 'postgres';
  readonly owner = null;
  readonly dbPath: string;

  constructor(
    private readonly shared: SharedIndex,
    readonly kbPath: string,
  ) {
    this.dbPath = shared.dbPath;
  }

  refusal(what: string): GrooveError {
    return unsupportedOnSharedStore(what);
  }

  ensureRead(): Promise<void> {
    return this.shared.ensureRead();
  }

  async hasIndex(): Promise<boolean> {
    await this.shared.readOnce();
    return IndexDatabase.exists(this.dbPath) && this.shared.hasWorkingCopy();
  }

  status(settings: StatusSettings): StatusReport {
    if (!this.shared.hasWorkingCopy()) {
      throw unsupportedOnSharedStore('a synchronous status read before the store was read');
    }
    return this.readStatus(settings);
  }

  describe(settings: () => StatusSettings, outsideSwap: OutsideSwap): Promise<StatusReport> {
    return outsideSwap(async () => {
      await this.shared.ensureRead();
      return this.readStatus(settings());
    });
  }

  async prepareForModel(settings: ResolvedConfig): Promise<void> {
    if (embedderIdOf(settings) !== 'none') await this.shared.requireVectors();
  }

  /** The pass runs on the working copy: the update on the store's rows, a rebuild on an empty copy. */
  write(force: boolean, passes: IndexPasses): Promise<IndexSummary> {
    return force ? this.shared.rebuild(passes.update) : this.shared.update(passes.update);
  }

  startReplica(events: ReplicaEvents): Promise<void> {
    return this.shared.startReplica(events);
  }

  replicaState(): ReplicaState | null {
    return this.shared.replicaState();
  }

  close(): Promise<void> {
    return this.shared.close();
  }

  private readStatus(settings: StatusSettings): StatusReport {
    return readIndexStatus(this.kbPath, this.dbPath, settings, {
      backend: 'postgres',
      location: this.shared.location,
    });
  }
}
