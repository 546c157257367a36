// The index use case through the facade on real files and a real SQLite index: incremental counts, edits,
// renames, deletes, exclusions, parser opt-in, chunk-policy changes, a file deleted mid-run, and the lock.
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IndexDatabase } from '../../src/app/indexing/index-database.js';
import type { IndexEvent } from '../../src/app/indexing/index-events.js';
import { type IndexerPorts, runIndex } from '../../src/app/indexing/indexer.js';
import { buildIndexerPorts } from '../../src/app/indexing/indexer-ports.js';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import type { ResolvedConfig } from '../../src/config/resolve-config.js';
import { GrooveError } from '../../src/errors.js';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';

let kb: TempKb;
beforeEach(() => {
  kb = createTempKb({
    'a.md': noteText('a'),
    'guides/b.md': noteText('b'),
    'guides/deep/c.md': noteText('c'),
  });
});
afterEach(() => kb.cleanup());

async function index(config: ResolvedConfig = kb.config({ overrides: { model: 'none' } }), force = false) {
  const events: IndexEvent[] = [];
  const facade = openKnowledgeBase(config);
  try {
    const summary = await facade.index({ force, onEvent: (event) => events.push(event) });
    return { summary, events };
  } finally {
    await facade.close();
  }
}

const warnings = (events: IndexEvent[]) =>
  events.flatMap((e) => (e.kind === 'warning' || e.kind === 'skipped' ? [e.message] : []));

describe('incremental indexing', () => {
  it('indexes every file once, then finds them all unchanged', async () => {
    const first = await index();
    expect(first.summary).toMatchObject({ indexed: 3, updated: 0, renamed: 0, deleted: 0, skipped: 0 });
    expect(first.summary).toMatchObject({ unchanged: 0, documents: 3, chunks: 6, model: 'none' });
    expect([...kb.documents().keys()].sort()).toEqual(['a.md', 'guides/b.md', 'guides/deep/c.md']);

    const second = await index();
    expect(second.summary).toMatchObject({ indexed: 0, updated: 0, deleted: 0, unchanged: 3, documents: 3 });
    expect(second.events.filter((e) => e.kind === 'file')).toEqual([]);
  });

  it('an edit is one update; its old words leave both FTS tables', async () => {
    await index();
    kb.write('a.md', noteText('a').replace('aalpha', 'replacementword'));
    const { summary } = await index();
    expect(summary).toMatchObject({ indexed: 0, updated: 1, unchanged: 2, documents: 3, chunks: 6 });
    expect(kb.ftsMatches('aalpha')).toEqual({ trigram: 0, words: 0 });
    expect(kb.ftsMatches('replacementword')).toEqual({ trigram: 1, words: 1 });
  });

  it('a frontmatter-only edit updates metadata and byte offsets, not the chunk texts', async () => {
    await index();
    const before = kb.documents().get('a.md')!;
    kb.write('a.md', noteText('a', { tags: ['test', 'extra', 'another-long-tag'] }));
    const { summary } = await index();
    expect(summary.updated).toBe(1);
    const after = kb.documents().get('a.md')!;
    expect(after.tags).toEqual(['test', 'extra', 'another-long-tag']);
    expect(after.chunks.map((c) => c.content)).toEqual(before.chunks.map((c) => c.content));
    expect(after.chunks[0]!.byteStart).toBeGreaterThan(before.chunks[0]!.byteStart);
  });

  it('a moved file with the same bytes is a rename, not a delete plus an add', async () => {
    await index();
    const before = kb.documents().get('guides/b.md')!;
    kb.move('guides/b.md', 'archive/b-moved.md');
    const { summary, events } = await index();
    expect(summary).toMatchObject({ indexed: 0, renamed: 1, deleted: 0, documents: 3 });
    expect(events).toContainEqual(
      expect.objectContaining({ kind: 'file', action: 'renamed', from: 'guides/b.md' }),
    );
    const docs = kb.documents();
    expect(docs.has('guides/b.md')).toBe(false);
    expect(docs.get('archive/b-moved.md')!.contentHash).toBe(before.contentHash);
    expect(kb.ftsMatches('bbeta')).toEqual({ trigram: 1, words: 1 });
  });

  it('sweeps deleted files, their chunks and their FTS rows', async () => {
    await index();
    kb.remove('guides/deep/c.md');
    const { summary } = await index();
    expect(summary).toMatchObject({ deleted: 1, documents: 2, chunks: 4, unchanged: 2 });
    expect(kb.documents().has('guides/deep/c.md')).toBe(false);
    expect(kb.ftsMatches('calpha')).toEqual({ trigram: 0, words: 0 });
  });

  it('a touched file with the same bytes stays unchanged and is not read again afterwards', async () => {
    await index();
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(kb.abs('a.md'), later, later);
    expect((await index()).summary).toMatchObject({ unchanged: 3, updated: 0 });
    const reads = await runWithPorts((ports) => ({
      ...ports,
      readFile(file) {
        throw new Error(`no file should be read on a no-op run, read ${file.relPath}`);
      },
    }));
    expect(reads.summary.unchanged).toBe(3);
  });

  it('counts broken frontmatter, warns with the path, and still indexes the body', async () => {
    kb.write(
      'broken.md',
      '---\ntitle: [unclosed\n---\n# Broken\n\nThe body of the broken note is still searchable.\n',
    );
    const { summary, events } = await index();
    expect(summary).toMatchObject({ indexed: 4, frontmatterErrors: 1 });
    expect(warnings(events).some((w) => w.includes('broken.md') && w.includes('frontmatter'))).toBe(true);
    expect(kb.documents().get('broken.md')!.frontmatterError).not.toBeNull();
    expect(kb.ftsMatches('searchable')).toEqual({ trigram: 1, words: 1 });
    expect(openKnowledgeBase(kb.config()).status().frontmatterErrors).toBe(1);
  });

  it('skips an empty file with a warning instead of storing a document without chunks', async () => {
    kb.write('empty.md', '');
    kb.write('only-frontmatter.md', '---\ntitle: Nothing else\n---\n');
    const { summary, events } = await index();
    expect(summary).toMatchObject({ indexed: 3, skipped: 2, documents: 3 });
    expect(warnings(events).some((w) => w.includes('empty.md'))).toBe(true);
    expect(warnings(events).some((w) => w.includes('only-frontmatter.md'))).toBe(true);
    // A note emptied later loses its old text: the file no longer says it.
    kb.write('a.md', '');
    const again = await index();
    expect(again.summary).toMatchObject({ deleted: 1, documents: 2 });
    expect(kb.documents().has('a.md')).toBe(false);
  });

  it('keeps what was indexed for a file that has since become unreadable as text', async () => {
    await index();
    kb.write('a.md', Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]));
    const { summary, events } = await index();
    expect(summary).toMatchObject({ skipped: 1, deleted: 0, documents: 3 });
    expect(warnings(events).some((w) => w.includes('a.md') && w.includes('UTF-8'))).toBe(true);
    expect(kb.ftsMatches('aalpha').words).toBe(1);
  });
});

describe('what gets walked', () => {
  it('honours .grooveignore and sweeps files it newly excludes', async () => {
    kb.write('drafts/wip.md', noteText('wip'));
    await index();
    expect(kb.documents().has('drafts/wip.md')).toBe(true);
    kb.write('.grooveignore', '# drafts are private\ndrafts/\nguides/**/c.md\n');
    const { summary } = await index();
    expect(summary).toMatchObject({ deleted: 2, documents: 2 });
    expect([...kb.documents().keys()].sort()).toEqual(['a.md', 'guides/b.md']);
  });

  it('skips exclude_dirs from groove.toml (whole name, any depth, case-insensitive)', async () => {
    kb.write('Private/secret.md', noteText('secret'));
    kb.write('guides/private/inner.md', noteText('inner'));
    kb.write('node_modules/pkg/readme.md', noteText('pkg'));
    const { summary } = await index(kb.config({ toml: 'exclude_dirs = ["private"]\nmodel = "none"\n' }));
    expect(summary.documents).toBe(3);
    expect([...kb.documents().keys()].some((p) => /private|node_modules/i.test(p))).toBe(false);
  });

  it('indexes .txt only when [parsers] enabled lists it, and drops it again when it does not', async () => {
    kb.write('notes.txt', 'Plain text notes about the txtonlyword topic, long enough to form one chunk.\n');
    expect((await index()).summary.documents).toBe(3);
    const withTxt = kb.config({ toml: 'model = "none"\n[parsers]\nenabled = ["md", "txt"]\n' });
    expect((await index(withTxt)).summary).toMatchObject({ indexed: 1, documents: 4 });
    expect(kb.ftsMatches('txtonlyword').words).toBe(1);
    expect((await index(kb.config({ toml: 'model = "none"\n' }))).summary).toMatchObject({ deleted: 1 });
  });
});

describe('chunk policy', () => {
  it('re-parses every file when chunking settings change, then settles', async () => {
    expect((await index()).summary.chunks).toBe(6);
    const oneLevel = kb.config({ toml: 'model = "none"\n[chunking]\nmax_heading_level = 1\n' });
    const changed = await index(oneLevel);
    expect(changed.summary).toMatchObject({ updated: 3, unchanged: 0, documents: 3, chunks: 3 });
    expect((await index(oneLevel)).summary).toMatchObject({ unchanged: 3, updated: 0, chunks: 3 });
  });
});

describe('files that change during a run', () => {
  it('a file deleted between the walk and its read is skipped, swept, and nothing else is lost', async () => {
    await index();
    kb.write('guides/b.md', noteText('b').replace('bbeta', 'bgamma')); // forces a read of b.md
    kb.write('new.md', noteText('new'));
    const { summary, events } = await runWithPorts((ports) => ({
      ...ports,
      readFile(file) {
        if (file.relPath === 'guides/b.md') fs.rmSync(file.absPath);
        return ports.readFile(file);
      },
    }));
    expect(summary).toMatchObject({ indexed: 1, skipped: 1, deleted: 1, unchanged: 2, documents: 3 });
    expect(warnings(events).some((w) => w.includes('guides/b.md') && w.includes('no longer exists'))).toBe(
      true,
    );
    expect([...kb.documents().keys()].sort()).toEqual(['a.md', 'guides/deep/c.md', 'new.md']);
  });
});

describe('the writer lock', () => {
  it('refuses a second writer while the lock holder lives, and takes over a dead one', async () => {
    await index();
    fs.writeFileSync(`${kb.dbPath}.lock`, `${process.ppid}\n`);
    const busy = await index().catch((error: unknown) => error);
    expect(busy).toBeInstanceOf(GrooveError);
    expect((busy as GrooveError).code).toBe('INDEX_BUSY');
    expect((busy as GrooveError).message).toContain(String(process.ppid));
    fs.writeFileSync(`${kb.dbPath}.lock`, '2147483646\n'); // no such process
    expect((await index()).summary.unchanged).toBe(3);
    expect(fs.existsSync(`${kb.dbPath}.lock`)).toBe(false);
  });
});

describe('status', () => {
  it('reports counts and identity, and never creates an index', async () => {
    const missing = (() => {
      try {
        return openKnowledgeBase(kb.config()).status();
      } catch (error) {
        return error;
      }
    })();
    expect((missing as GrooveError).code).toBe('INDEX_NOT_FOUND');
    // The hint names the folder to index, not a placeholder.
    expect((missing as GrooveError).hint).toBe(`run \`groove index --kb-path ${kb.kbPath}\` first`);
    const searcher = openKnowledgeBase(kb.config());
    await expect(searcher.search({ query: 'x' })).rejects.toMatchObject({
      code: 'INDEX_NOT_FOUND',
      hint: `run \`groove index --kb-path ${kb.kbPath}\` first`,
    });
    await searcher.close();
    expect(fs.existsSync(kb.dbPath)).toBe(false);
    await index();
    const report = openKnowledgeBase(kb.config()).status();
    expect(report).toMatchObject({ documents: 3, chunks: 6, vectors: 0, model: 'none', contextMode: 'off' });
    expect(report.dbSizeBytes).toBeGreaterThan(0);
    expect(Date.parse(report.lastIndexedAt!)).not.toBeNaN();
  });
});

/** Run the indexer directly with ports the test may wrap (a fake entering through the port, not a mock). */
async function runWithPorts(wrap: (ports: IndexerPorts) => IndexerPorts) {
  const config = kb.config({ overrides: { model: 'none' } });
  const database = IndexDatabase.open(kb.dbPath, { create: true });
  const events: IndexEvent[] = [];
  try {
    const summary = await runIndex({
      store: database.documents,
      ports: wrap(buildIndexerPorts(kb.kbPath, config)),
      queue: database.embeddingQueue,
      embedder: null,
      reparseAll: false,
      contextual: false,
      maxInputChars: config.embedding.maxInputChars,
      batchSize: config.embedding.batchSize,
      onEvent: (event) => events.push(event),
      countRows: () => database.counts(),
    });
    return { summary, events };
  } finally {
    database.close();
  }
}
