// Indexing with an embedder (a deterministic counting one, injected through the facade's seam): what is and
// is not re-embedded, model mismatches, and `--force` rebuilds that swap in atomically or not at all.
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type KnowledgeBase, openKnowledgeBase } from '../../src/app/knowledge-base.js';
import type { ConfigOverrides } from '../../src/config/resolve-config.js';
import { GrooveError } from '../../src/errors.js';
import { CountingEmbedder } from '../support/counting-embedder.js';
import { damageIndex } from '../support/damage-index.js';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';

let kb: TempKb;
beforeEach(() => {
  kb = createTempKb({ 'a.md': noteText('a'), 'b.md': noteText('b'), 'sub/c.md': noteText('c') });
});
afterEach(() => kb.cleanup());

function facade(
  embedder: CountingEmbedder | null,
  options: { toml?: string; overrides?: ConfigOverrides } = {},
) {
  return openKnowledgeBase(kb.config(options), { createEmbedder: async () => embedder });
}

async function index(target: KnowledgeBase, force = false) {
  try {
    return await target.index({ force });
  } finally {
    await target.close();
  }
}

async function indexError(target: KnowledgeBase, force = false): Promise<GrooveError | Error> {
  try {
    await index(target, force);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the index run to fail');
}

const embedKeys = (relPath: string) =>
  kb
    .documents()
    .get(relPath)!
    .chunks.map((c) => c.embedKey);
const vectors = (relPath: string) =>
  kb
    .documents()
    .get(relPath)!
    .chunks.map((c) => c.vector?.toString('hex'));

describe('re-embedding only what changed', () => {
  it('embeds every chunk once, and nothing on a second run', async () => {
    const embedder = new CountingEmbedder();
    const summary = await index(facade(embedder));
    expect(summary).toMatchObject({ indexed: 3, chunks: 6, embeddedChunks: 6, model: embedder.id });
    expect(embedder.embeddedTexts).toHaveLength(6);
    expect(openKnowledgeBase(kb.config()).status()).toMatchObject({ vectors: 6, dimension: 8 });
    embedder.reset();
    expect(await index(facade(embedder))).toMatchObject({ unchanged: 3, embeddedChunks: 0 });
    expect(embedder.calls).toBe(0);
  });

  it('a frontmatter-only edit keeps every embed key and vector and embeds nothing', async () => {
    const embedder = new CountingEmbedder();
    await index(facade(embedder));
    const keysBefore = embedKeys('a.md');
    const vectorsBefore = vectors('a.md');
    embedder.reset();
    kb.write('a.md', noteText('a', { title: 'A retitled note', tags: ['moved', 'retagged'] }));
    const summary = await index(facade(embedder));
    expect(summary).toMatchObject({ updated: 1, embeddedChunks: 0 });
    expect(embedder.calls).toBe(0);
    expect(embedKeys('a.md')).toEqual(keysBefore);
    expect(vectors('a.md')).toEqual(vectorsBefore);
    expect(kb.documents().get('a.md')).toMatchObject({
      title: 'A retitled note',
      tags: ['moved', 'retagged'],
    });
  });

  it('an edit to one section re-embeds only that section', async () => {
    const embedder = new CountingEmbedder();
    await index(facade(embedder));
    const [firstKey, secondKey] = embedKeys('b.md');
    embedder.reset();
    kb.write('b.md', noteText('b').replace('mentions bbeta', 'now mentions bdelta instead'));
    expect(await index(facade(embedder))).toMatchObject({ updated: 1, embeddedChunks: 1 });
    expect(embedder.embeddedTexts).toHaveLength(1);
    expect(embedder.embeddedTexts[0]).toContain('bdelta');
    const [firstAfter, secondAfter] = embedKeys('b.md');
    expect(firstAfter).toBe(firstKey);
    expect(secondAfter).not.toBe(secondKey);
  });

  it('a rename reuses the vectors and embeds nothing', async () => {
    const embedder = new CountingEmbedder();
    await index(facade(embedder));
    const vectorsBefore = vectors('sub/c.md');
    embedder.reset();
    kb.move('sub/c.md', 'other/c-renamed.md');
    expect(await index(facade(embedder))).toMatchObject({ renamed: 1, deleted: 0, embeddedChunks: 0 });
    expect(embedder.calls).toBe(0);
    expect(vectors('other/c-renamed.md')).toEqual(vectorsBefore);
    expect(kb.documents().has('sub/c.md')).toBe(false);
  });

  it('a chunk-policy change re-parses every file but re-embeds only chunks whose text changed', async () => {
    const embedder = new CountingEmbedder();
    await index(facade(embedder));
    embedder.reset();
    // One chunk per file now: the merged texts are new, so each file is embedded once.
    const summary = await index(facade(embedder, { toml: '[chunking]\nmax_heading_level = 1\n' }));
    expect(summary).toMatchObject({ updated: 3, chunks: 3, embeddedChunks: 3 });
    embedder.reset();
    // Back to the default: the original section texts come back, but their vectors were dropped with the rows.
    expect(await index(facade(embedder))).toMatchObject({ updated: 3, chunks: 6 });
  });
});

describe('model identity', () => {
  it('refuses a different model with a --force hint, then --force rebuilds with it', async () => {
    await index(facade(new CountingEmbedder({ model: 'first' })));
    const other = new CountingEmbedder({ model: 'second', dimension: 16 });
    const error = await indexError(facade(other));
    expect(error).toBeInstanceOf(GrooveError);
    expect((error as GrooveError).code).toBe('INDEX_MISMATCH');
    expect(error.message).toContain('test-counting:first');
    expect(error.message).toContain('dimension 8 vs 16');
    expect((error as GrooveError).hint).toContain('--force');
    expect(other.calls).toBe(0);

    expect(await index(facade(other), true)).toMatchObject({ indexed: 3, embeddedChunks: 6 });
    expect(openKnowledgeBase(kb.config()).status()).toMatchObject({
      model: 'test-counting:second',
      dimension: 16,
      vectors: 6,
    });
  });

  it('refuses an explicit --model none on an index that has vectors', async () => {
    await index(facade(new CountingEmbedder()));
    const error = await indexError(facade(null, { overrides: { model: 'none' } }));
    expect((error as GrooveError).code).toBe('INDEX_MISMATCH');
    expect(await index(facade(null, { overrides: { model: 'none' } }), true)).toMatchObject({ indexed: 3 });
    expect(openKnowledgeBase(kb.config()).status()).toMatchObject({ model: 'none', vectors: 0 });
  });

  it('refuses switching the context mode without --force', async () => {
    await index(facade(new CountingEmbedder()));
    const error = await indexError(
      facade(new CountingEmbedder(), { toml: '[contextual]\nenabled = true\n' }),
    );
    expect((error as GrooveError).code).toBe('INDEX_MISMATCH');
    expect(error.message).toContain('context mode');
  });
});

describe('--force rebuild', () => {
  it('leaves the old index whole and readable when the rebuild fails midway', async () => {
    await index(facade(new CountingEmbedder({ model: 'old' })));
    const before = kb.documents();
    // Every file's text, and the first calls' vectors, are written to the new file before a later call fails
    // (166 chunks, 32 per call at batch_size 8).
    for (let i = 0; i < 80; i++) kb.write(`bulk/n${i}.md`, noteText(`n${i}`));
    const failing = new CountingEmbedder({ model: 'new', failAfterCalls: 3 });
    const error = await indexError(facade(failing, { toml: '[embedding]\nbatch_size = 8\n' }), true);
    expect(error.message).toContain('failing on purpose');
    expect(failing.calls).toBe(3);

    expect(kb.documents()).toEqual(before);
    expect(openKnowledgeBase(kb.config()).status()).toMatchObject({
      model: 'test-counting:old',
      documents: 3,
      vectors: 6,
    });
    expect(fs.existsSync(`${kb.dbPath}.lock`)).toBe(false);
    expect(fs.readdirSync(kb.root).filter((name) => name.includes('.rebuild'))).toEqual([]);
    // The old index keeps working incrementally with its own model.
    const next = await index(facade(new CountingEmbedder({ model: 'old' })));
    expect(next).toMatchObject({ indexed: 80, unchanged: 3 });
  });

  it('replaces a damaged index file', async () => {
    await index(facade(null));
    damageIndex(kb.dbPath);
    const error = await indexError(facade(null));
    expect((error as GrooveError).code).toBe('DB_CORRUPT');
    expect((error as GrooveError).hint).toContain('--force');
    expect(await index(facade(null), true)).toMatchObject({ indexed: 3, documents: 3 });
  });
});
