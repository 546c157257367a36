// One index file as a process sees it: the read session open on it, the gate that keeps reads and feedback
// writes of this process off the file while a finished rebuild is swapped in, and the rebuild-and-swap itself.
import fs from 'node:fs';
import { carryFeedbackInto, withFeedbackGate } from './feedback-database.js';
import { IndexDatabase, rebuildPathOf } from './index-database.js';
import type { IndexEventSink } from './index-events.js';

/** What the file needs of a read session: it can be closed, asked whether its file was replaced, retired. */
export interface FileSession {
  close(): void;
  /** True when the index path now names another file than the one this session opened. */
  replacedOnDisk(): boolean;
  /** Drop cached snapshots; the connection stays open, unused (see currentSession). */
  retire(): void;
}

export class IndexFile<S extends FileSession> {
  private sessionPromise: Promise<S> | null = null;
  /** Sessions on files another process replaced: kept open on purpose (see currentSession). */
  private readonly retiredSessions: S[] = [];
  /** Set while a finished rebuild is being swapped in; reads wait for it. */
  private swapping: Promise<void> | null = null;
  /** Reads and feedback writes running now; the swap waits for them. */
  private activeReads = 0;
  private readsDrained: (() => void)[] = [];

  constructor(
    readonly dbPath: string,
    private readonly openSession: () => Promise<S>,
  ) {}

  /** Run one writer (index or rebuild) under the writer lock; failures come back as groove errors. */
  async write<T>(work: () => Promise<T>): Promise<T> {
    try {
      const lock = IndexDatabase.lockForWriting(this.dbPath);
      try {
        return await work();
      } finally {
        lock.release();
      }
    } catch (error) {
      throw IndexDatabase.explainFailure(error, this.dbPath);
    }
  }

  /**
   * Build a new index file beside the live one and swap it in only when complete. A half-built or unswapped
   * copy is never used and never left behind.
   */
  async rebuild<T>(build: (tempPath: string) => Promise<T>, onEvent?: IndexEventSink): Promise<T> {
    const tempPath = rebuildPathOf(this.dbPath);
    IndexDatabase.remove(tempPath);
    try {
      const result = await build(tempPath);
      await this.swapIn(tempPath, onEvent);
      return result;
    } catch (error) {
      IndexDatabase.remove(tempPath);
      throw error;
    }
  }

  /** Run one read on the current session, never across a rebuild swap (see swapIn). */
  withSession<T>(read: (session: S) => Promise<T>): Promise<T> {
    return this.outsideSwap(async () => read(await this.currentSession()));
  }

  /** Run work that opens its own connection, never across a rebuild swap (it waits, and the swap waits for it). */
  async outsideSwap<T>(work: () => Promise<T>): Promise<T> {
    while (this.swapping) await this.swapping;
    this.activeReads++;
    try {
      return await work();
    } finally {
      this.activeReads--;
      if (this.activeReads === 0) for (const resolve of this.readsDrained.splice(0)) resolve();
    }
  }

  /**
   * Open a new session for the next read (the models changed: one that could not load has loaded). The current
   * session is retired like one on a replaced file, so reads running on it finish undisturbed.
   */
  async reopen(): Promise<void> {
    const current = this.sessionPromise;
    this.sessionPromise = null;
    const session = await current?.catch(() => null);
    if (!session) return;
    session.retire();
    this.retiredSessions.push(session);
  }

  /** Close the open session (retired ones stay open until process exit). */
  async close(): Promise<void> {
    const session = await this.sessionPromise?.catch(() => null);
    session?.close();
  }

  /**
   * Move a finished rebuild over the live index. The session still reads the old file, so new reads wait,
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

  /**
   * The open session, reopened when another process (`groove index --force`) renamed a new file over the index.
   * The stale session is retired (its snapshots dropped) and left open until process exit. SQLite neither
   * checkpoints nor deletes the WAL of a database file that was renamed away, so that connection cannot touch
   * the new file's `<index>-wal`.
   */
  private async currentSession(): Promise<S> {
    this.sessionPromise ??= this.guardedOpen();
    const opening = this.sessionPromise;
    const session = await opening;
    if (!session.replacedOnDisk()) return session;
    if (this.sessionPromise === opening) {
      session.retire();
      this.retiredSessions.push(session);
      this.sessionPromise = this.guardedOpen();
    }
    return this.sessionPromise ?? this.currentSession();
  }

  /** Open a session; a failed open is forgotten, so the next read tries again. */
  private guardedOpen(): Promise<S> {
    const guarded: Promise<S> = this.openSession().catch((error: unknown) => {
      if (this.sessionPromise === guarded) this.sessionPromise = null;
      throw error;
    });
    return guarded;
  }
}
