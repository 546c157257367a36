// Live sync against real files, the real chokidar watcher and the real indexer: creates, edits, deletes, renames
// and .grooveignore are followed; a burst stays bounded (one run in flight, one queued); a deleted KB folder and
// failing runs are logged while the index keeps answering.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyIndexSummary } from '../../src/app/indexing/index-events.js';
import { type KnowledgeBase, openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { IndexRunner } from '../../src/app/serve/index-runner.js';
import { LiveSync, type LiveSyncHandle, startLiveSync } from '../../src/app/serve/live-sync.js';
import { CountingEmbedder } from '../support/counting-embedder.js';
import { holdLock } from '../support/lock-holder.js';
import { createServeKb, note, openTestKb, type ServeKb, waitFor } from '../support/mcp-fixture.js';

describe('LiveSync queue', () => {
  it('runs over the files the watcher named, and over every file when a change may concern others', async () => {
    const scopes: (readonly string[] | undefined)[] = [];
    const sync = new LiveSync({
      debounceMs: 10,
      log: () => {},
      run: async (paths) => {
        scopes.push(paths);
        return emptyIndexSummary('none');
      },
    });
    sync.notify({ kind: 'change', relPath: 'a.md' });
    sync.notify({ kind: 'add', relPath: 'b.md' });
    sync.notify({ kind: 'unlink', relPath: 'c.md' });
    await waitFor(() => scopes.length === 1, 2_000, 'the first run');
    for (const kind of ['add-dir', 'unlink-dir', 'rules'] as const) {
      sync.notify({ kind: 'change', relPath: 'a.md' });
      sync.notify({ kind, relPath: 'x' });
      await waitFor(
        () => scopes.length === (kind === 'add-dir' ? 2 : kind === 'unlink-dir' ? 3 : 4),
        2_000,
        kind,
      );
    }
    sync.syncNow('startup');
    await waitFor(() => scopes.length === 5, 2_000, 'the named run');
    expect(scopes).toEqual([['a.md', 'b.md', 'c.md'], undefined, undefined, undefined, undefined]);
    await sync.close();
  });

  it('coalesces a 10,000-event burst into bounded memory and at most one run in flight plus one queued', async () => {
    let runs = 0;
    let inFlight = 0;
    let maxInFlight = 0;
    let release: () => void = () => {};
    const logs: string[] = [];
    const sync = new LiveSync({
      debounceMs: 20,
      maxTrackedPaths: 500,
      log: (line) => logs.push(line),
      run: async () => {
        runs++;
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        inFlight--;
        return emptyIndexSummary('none');
      },
    });
    expect(sync.stats()).toMatchObject({ phase: 'idle', waitingForWriter: false, lastFailure: null });
    for (let i = 0; i < 10_000; i++) sync.notify({ kind: 'change', relPath: `notes/n${i}.md` });
    expect(sync.stats()).toMatchObject({ phase: 'debouncing', pendingPaths: 500 });
    await waitFor(() => runs === 1, 2_000, 'the first run');
    expect(sync.stats()).toMatchObject({ phase: 'running', pendingPaths: 0 });
    expect(logs[0]).toMatch(/10000 in all/);
    // A second burst while the first run is busy: it queues ONE more run, however many events arrive.
    for (let i = 0; i < 10_000; i++) sync.notify({ kind: 'add', relPath: `more/m${i % 700}.md` });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(runs).toBe(1);
    expect(sync.stats().pendingPaths).toBe(500);
    release();
    await waitFor(() => runs === 2, 2_000, 'the queued run');
    release();
    await waitFor(() => inFlight === 0, 2_000, 'the runs to finish');
    expect(maxInFlight).toBe(1);
    expect(sync.stats()).toMatchObject({ events: 20_000, runs: 2, failures: 0, pendingPaths: 0 });
    await waitFor(() => sync.stats().phase === 'idle', 2_000, 'live sync to go idle');
    await sync.close();
  });

  it('puts a failed run back, merged with what changed meanwhile, and retries it with backoff on its own', async () => {
    const logs: string[] = [];
    let attempts = 0;
    let fail: () => void = () => {};
    const sync = new LiveSync({
      debounceMs: 10,
      log: (line) => logs.push(line),
      retryDelayMs: (attempt) => attempt * 200,
      run: async () => {
        attempts++;
        if (attempts === 1) await new Promise<void>((resolve) => (fail = resolve));
        if (attempts <= 2) throw new Error('disk on fire');
        return emptyIndexSummary('none');
      },
    });
    sync.notify({ kind: 'change', relPath: 'a.md' });
    await waitFor(() => attempts === 1, 2_000, 'the first run');
    sync.notify({ kind: 'add', relPath: 'b.md' }); // arrives while the doomed run is in flight
    fail();
    await waitFor(() => sync.stats().failures >= 1, 2_000, 'the first failure');
    expect(sync.stats()).toMatchObject({ phase: 'retrying', pendingPaths: 2, lastFailure: 'disk on fire' });
    await waitFor(() => logs.some((l) => l.includes('0 added')), 2_000, 'the retries');
    expect(attempts).toBe(3);
    expect(logs.join('\n')).toMatch(
      /live sync failed: disk on fire; still serving the last index \(retry 1 in 0\.2 s\)/,
    );
    expect(logs.join('\n')).toMatch(/retry 2 in 0\.4 s/);
    expect(logs.filter((l) => l.includes('updating the index'))).toHaveLength(3);
    expect(logs.filter((l) => l.includes('updating the index')).at(-1)).toMatch(
      /2 changes \((a|b)\.md, (a|b)\.md\)/,
    );
    expect(sync.stats()).toMatchObject({ failures: 2, pendingPaths: 0, phase: 'idle', lastFailure: null });
    await sync.close();
  });
});

describe('live sync with the real watcher and indexer', () => {
  let serveKb: ServeKb | null = null;
  let kb: KnowledgeBase | null = null;
  let handle: LiveSyncHandle | null = null;
  const logs: string[] = [];

  afterEach(async () => {
    await handle?.close();
    await kb?.close();
    serveKb?.cleanup();
    handle = null;
    kb = null;
    serveKb = null;
    logs.length = 0;
  });

  async function serve(): Promise<{ kb: KnowledgeBase; serveKb: ServeKb; runner: IndexRunner }> {
    serveKb = createServeKb({ model: 'none' });
    kb = openTestKb(serveKb);
    const runner = new IndexRunner(kb);
    handle = startLiveSync({ kb, runner, debounceMs: 50, log: (line) => logs.push(line) });
    await handle.ready;
    await waitFor(() => logs.some((l) => l.includes('6 added')), 5_000, 'the startup sync');
    return { kb, serveKb, runner };
  }

  const pathsFor = async (theKb: KnowledgeBase, query: string) =>
    (await theKb.search({ query, limit: 20, includeLowQuality: true })).results.map((r) => r.path);

  it('follows created, modified, deleted and renamed files', async () => {
    const { kb, serveKb } = await serve();
    // The rename below must not race a run started by this folder's own creation: a run that scans the folder
    // between the unlink and the add sees a delete and then a create, not a rename.
    fs.mkdirSync(path.join(serveKb.kbPath, 'archive'));
    serveKb.write('new/created.md', note('created'));
    await waitFor(
      async () => (await pathsFor(kb, 'createdalpha')).includes('new/created.md'),
      5_000,
      'create',
    );

    serveKb.write('ops/backup.md', note('rewritten'));
    await waitFor(
      async () => (await pathsFor(kb, 'rewrittenalpha')).includes('ops/backup.md'),
      5_000,
      'modify',
    );
    expect(await pathsFor(kb, 'backupalpha')).not.toContain('ops/backup.md');

    fs.rmSync(path.join(serveKb.kbPath, 'ops/restore.md'));
    await waitFor(
      async () => !(await pathsFor(kb, 'restorealpha')).includes('ops/restore.md'),
      5_000,
      'delete',
    );

    fs.renameSync(path.join(serveKb.kbPath, 'readme.md'), path.join(serveKb.kbPath, 'archive/readme.md'));
    await waitFor(
      async () => (await pathsFor(kb, 'readmealpha')).join() === 'archive/readme.md',
      5_000,
      'rename',
    );
    expect(logs.some((l) => /1 renamed/.test(l))).toBe(true);

    fs.renameSync(
      path.join(serveKb.kbPath, 'guides/setup'),
      path.join(serveKb.kbPath, 'guides/install-setup'),
    );
    await waitFor(
      async () => (await pathsFor(kb, 'installalpha')).includes('guides/install-setup/install.md'),
      5_000,
      'folder rename',
    );
    expect(kb.status().documents).toBe(6);
  });

  it('an edited note’s links change its edges in get_connection_graph', async () => {
    const { kb, serveKb } = await serve();
    const edgesOf = async (start: string) => {
      const result = await kb.connectionGraph({ start });
      if (!result.ok) throw new Error(result.message);
      return result.graph.edges.map((edge) => `${edge.source} -${edge.kind}-> ${edge.target}`).join(', ');
    };
    expect(await edgesOf('ops/backup.md')).toBe('');
    serveKb.write('ops/backup.md', `${note('backup')}\nThen [restore](restore.md).\n`);
    await waitFor(
      async () => (await edgesOf('ops/backup.md')) === 'ops/backup.md -markdown-> ops/restore.md',
      5_000,
      'the new link',
    );
    serveKb.write('ops/backup.md', `${note('backup')}\nNow see [[readme]] instead.\n`);
    await waitFor(
      async () => (await edgesOf('ops/backup.md')) === 'ops/backup.md -wikilink-> readme.md',
      5_000,
      'the replaced link',
    );
    expect(await edgesOf('ops/restore.md')).toBe('');
    // The target moves: a wikilink finds it by name in its new folder.
    fs.mkdirSync(path.join(serveKb.kbPath, 'archive'));
    fs.renameSync(path.join(serveKb.kbPath, 'readme.md'), path.join(serveKb.kbPath, 'archive/readme.md'));
    await waitFor(
      async () => (await edgesOf('ops/backup.md')) === 'ops/backup.md -wikilink-> archive/readme.md',
      5_000,
      'the moved target',
    );
  });

  it('honours .grooveignore, including a change to it, and ignores files it cannot index', async () => {
    const { kb, serveKb } = await serve();
    serveKb.write('.grooveignore', 'drafts/\n');
    await waitFor(() => logs.some((l) => l.includes('(.grooveignore)')), 5_000, 'the rules change');
    serveKb.write('drafts/secret.md', note('secret'));
    serveKb.write('image.png', 'not a note');
    serveKb.write('visible.md', note('visible'));
    await waitFor(async () => (await pathsFor(kb, 'visiblealpha')).includes('visible.md'), 5_000, 'visible');
    expect(await pathsFor(kb, 'secretalpha')).toEqual([]);
    expect(logs.some((l) => l.includes('image.png') || l.includes('drafts/secret.md'))).toBe(false);

    serveKb.write('.grooveignore', '# nothing ignored now\n');
    await waitFor(
      async () => (await pathsFor(kb, 'secretalpha')).includes('drafts/secret.md'),
      5_000,
      'unignore',
    );
  });

  it('indexes a burst of 300 new files in a handful of runs', async () => {
    const { kb, serveKb, runner } = await serve();
    const runsBefore = runner.status().completedRuns;
    for (let i = 0; i < 300; i++) serveKb.write(`burst/b${i}.md`, note(`burst${i}x`));
    // Files are searchable once written, before their run has embedded them and ended: wait for both.
    await waitFor(
      async () => kb.status().documents === 306 && runner.status().active === null,
      15_000,
      'all 300 files',
    );
    const runs = runner.status().completedRuns - runsBefore;
    expect(runs).toBeGreaterThanOrEqual(1);
    expect(runs).toBeLessThan(20);
    expect(await pathsFor(kb, 'burst299xalpha')).toContain('burst/b299.md');
  });

  it('retries a run refused while another process holds the writer lock, without another change', async () => {
    const { kb, serveKb, runner } = await serve();
    const holder = await holdLock('index', serveKb.dbPath);
    try {
      serveKb.write('ops/backup.md', note('rewritten'));
      serveKb.write('new/created.md', note('created'));
      fs.rmSync(path.join(serveKb.kbPath, 'ops/restore.md'));
      await waitFor(
        () => logs.some((l) => /live sync failed|until that writer is done/.test(l)),
        5_000,
        'the refusal',
      );
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // refused again and again meanwhile
      expect(await pathsFor(kb, 'createdalpha')).toEqual([]);
      expect(handle?.stats().waitingForWriter).toBe(true);
      expect(handle?.stats().lastFailure).toMatch(/writer|lock/i);
      expect(runner.status().recentRuns[0]).toMatchObject({ kind: 'sync', summary: null });
      expect(runner.status().recentRuns[0]?.error?.code).toBe('INDEX_BUSY');
    } finally {
      await holder.release();
    }
    // No further change: the refused run alone must bring all three in once the lock is free.
    await waitFor(
      async () =>
        (await pathsFor(kb, 'rewrittenalpha')).includes('ops/backup.md') &&
        (await pathsFor(kb, 'createdalpha')).includes('new/created.md') &&
        !(await pathsFor(kb, 'restorealpha')).includes('ops/restore.md'),
      5_000,
      'the retried run after the lock was released',
    );
    expect(logs.filter((l) => /until that writer is done/.test(l))).toHaveLength(1);
    expect(handle?.stats()).toMatchObject({ failures: 0, pendingPaths: 0, waitingForWriter: false });
    expect(handle?.stats().refused).toBeGreaterThan(1);
    expect(runner.status().recentRuns[0]).toMatchObject({ kind: 'sync', error: null });
    expect(runner.status().recentRuns[0]?.summary).toMatchObject({ indexed: 1, updated: 1, deleted: 1 });
    expect(logs.some((l) => /1 added, 1 updated, 0 renamed, 1 deleted.*after waiting/.test(l))).toBe(true);
  });

  it('logs a deleted KB folder and keeps answering from the last index', async () => {
    const { kb, serveKb } = await serve();
    fs.rmSync(serveKb.kbPath, { recursive: true, force: true });
    await waitFor(
      () => logs.some((l) => /deleted or moved|live sync failed/.test(l)),
      5_000,
      'the deletion to be logged',
    );
    expect(await pathsFor(kb, 'backupalpha')).toContain('ops/backup.md');
    expect(kb.status().documents).toBe(6);
  });
});

describe('live sync while a first index is still embedding', () => {
  const logs: string[] = [];
  let serveKb: ServeKb | null = null;
  let kb: KnowledgeBase | null = null;
  let handle: LiveSyncHandle | null = null;

  afterEach(async () => {
    await handle?.close();
    await kb?.close();
    serveKb?.cleanup();
    logs.length = 0;
  });

  /** A counting embedder that takes a while per call, like a real model on two cores. */
  class SlowEmbedder extends CountingEmbedder {
    override async embedDocuments(texts: string[]): Promise<Float32Array[]> {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return super.embedDocuments(texts);
    }
  }

  it('lets an edit in between two batches, then embeds the rest', async () => {
    const files: Record<string, string> = {};
    for (let n = 0; n < 30; n++) files[`notes/n${n}.md`] = note(`bulk${n}`);
    serveKb = createServeKb({ files });
    const config = { ...serveKb.config, embedding: { ...serveKb.config.embedding, batchSize: 1 } };
    kb = openKnowledgeBase(config, { createEmbedder: async () => new SlowEmbedder() });
    const runner = new IndexRunner(kb);
    handle = startLiveSync({ kb, runner, debounceMs: 20, log: (line) => logs.push(line) });
    await handle.ready;
    await waitFor(() => logs.some((l) => /embedding \d+ chunks/.test(l)), 10_000, 'the first embedding');

    serveKb.write('notes/late.md', note('late'));
    const theKb = kb;
    await waitFor(
      async () => (await pathsFor(theKb, 'latealpha')).includes('notes/late.md'),
      10_000,
      'the edit, searchable by keyword',
    );
    // The edit got in while most of the first index's chunks were still waiting for their vectors.
    expect(theKb.status().pendingEmbeddings).toBeGreaterThan(10);
    expect(logs.some((l) => /chunks embedded \(\d+ still to embed\)/.test(l))).toBe(true);

    await waitFor(() => theKb.status().pendingEmbeddings === 0, 20_000, 'the rest of the queue');
    const status = theKb.status();
    expect(status.vectors).toBe(status.chunks);
    expect((await theKb.search({ query: 'latealpha', limit: 3 })).legs.vector.status).toBe('ok');
  }, 40_000);

  const pathsFor = async (theKb: KnowledgeBase, query: string) =>
    (await theKb.search({ query, limit: 20, includeLowQuality: true })).results.map((r) => r.path);
});
