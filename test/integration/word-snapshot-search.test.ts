// A long-lived facade ranks the word leg from its in-memory snapshot from the second search of an index version
// on; a one-shot search ranks through FTS5. Both must give the same answers — before and after an edit, and on
// an index whose token counts are missing (written before schema 3), where only FTS5 can answer.
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { WordIndex } from '../../src/store/word-index.js';
import { CountingEmbedder } from '../support/counting-embedder.js';
import { createTempKb, type TempKb } from '../support/temp-kb.js';

const QUERIES = [
  'rotate backup keys',
  'restore the database from a snapshot',
  'verify replication lag',
  'disk volumes',
  '東京 売上 報告書',
  'schedule nightly backups',
];

function note(title: string, sections: string[]): string {
  return `# ${title}\n\n${sections.map((s, i) => `## Part ${i}\n\n${s}\n`).join('\n')}`;
}

let kb: TempKb;
beforeEach(() => {
  kb = createTempKb({
    'ops/backup.md': note('Backups', [
      'Rotate the backup keys every month and verify the restore.',
      'Nightly backups are scheduled at 02:00; the snapshot goes to the second disk.',
    ]),
    'ops/replication.md': note('Replication', [
      'Verify replication lag before a failover; restore the replica from a snapshot.',
      'Disk volumes of replicas are resized online.',
    ]),
    'sales/tokyo.md': note('東京', ['東京の売上報告書は毎週更新します。', '大阪の売上は会議で確認します。']),
    'guides/keys.md': note('Keys', ['Keys rotate automatically; backup keys are kept offline.']),
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  kb.cleanup();
});

/** What a fresh process answers: the first search of a new facade, which ranks through FTS5. */
async function oneShot(query: string) {
  const facade = openKnowledgeBase(kb.config({ overrides: { model: 'none' } }));
  try {
    return summarize(await facade.search({ query, limit: 5 }));
  } finally {
    await facade.close();
  }
}

function summarize(response: { results: { path: string; heading: string | null; score: number }[] }) {
  return response.results.map((r) => `${r.path}#${r.heading} ${r.score.toFixed(12)}`);
}

describe('word snapshot in a long-lived session', () => {
  it('answers exactly as FTS5 does, before and after an edit, and is the one ranking from the second search', async () => {
    const indexer = openKnowledgeBase(kb.config({ overrides: { model: 'none' } }));
    await indexer.index();
    const expected = await Promise.all(QUERIES.map(oneShot));
    const rank = vi.spyOn(WordIndex.prototype, 'rank');
    const facade = openKnowledgeBase(kb.config({ overrides: { model: 'none' } }));
    try {
      await facade.search({ query: 'warm up', limit: 5 });
      expect(rank).not.toHaveBeenCalled();
      for (const [i, query] of QUERIES.entries()) {
        expect(summarize(await facade.search({ query, limit: 5 }))).toEqual(expected[i]);
      }
      expect(rank).toHaveBeenCalledTimes(QUERIES.length);

      kb.write(
        'ops/backup.md',
        note('Backups', ['Backup keys are now rotated weekly.', 'Restore drills run monthly.']),
      );
      kb.remove('guides/keys.md');
      await indexer.index();
      const after = await Promise.all(QUERIES.map(oneShot));
      expect(after).not.toEqual(expected);
      await facade.search({ query: 'warm up', limit: 5 });
      for (const [i, query] of QUERIES.entries()) {
        expect(summarize(await facade.search({ query, limit: 5 }))).toEqual(after[i]);
      }
    } finally {
      await facade.close();
      await indexer.close();
    }
  });

  it('ranks through FTS5 while the index has no token counts (schema 2), and in memory once indexing filled them', async () => {
    const indexer = openKnowledgeBase(kb.config({ overrides: { model: 'none' } }));
    await indexer.index();
    await indexer.close();
    const expected = await Promise.all(QUERIES.map(oneShot));
    const db = new Database(kb.dbPath);
    db.exec('DELETE FROM chunk_word_counts');
    db.close();
    const rank = vi.spyOn(WordIndex.prototype, 'rank');
    const facade = openKnowledgeBase(kb.config({ overrides: { model: 'none' } }));
    try {
      await facade.warmUp();
      for (const [i, query] of QUERIES.entries()) {
        expect(summarize(await facade.search({ query, limit: 5 }))).toEqual(expected[i]);
      }
      expect(rank).not.toHaveBeenCalled();
    } finally {
      await facade.close();
    }
    // The next `groove index` fills the counts in; the snapshot then answers, with the same results.
    const indexer2 = openKnowledgeBase(kb.config({ overrides: { model: 'none' } }));
    await indexer2.index();
    await indexer2.close();
    const refreshed = openKnowledgeBase(kb.config({ overrides: { model: 'none' } }));
    try {
      await refreshed.warmUp();
      for (const [i, query] of QUERIES.entries()) {
        expect(summarize(await refreshed.search({ query, limit: 5 }))).toEqual(expected[i]);
      }
      expect(rank).toHaveBeenCalledTimes(QUERIES.length);
    } finally {
      await refreshed.close();
    }
  });

  it('keeps its snapshot across commits that only store vectors, and applies a text change to it', async () => {
    const withModel = () =>
      openKnowledgeBase(kb.config({ toml: '[embedding]\nbatch_size = 1\n' }), {
        createEmbedder: async () => new CountingEmbedder(),
      });
    const indexer = withModel();
    const facade = withModel();
    const load = vi.spyOn(WordIndex, 'loadWithin');
    /** Each query answered as a fresh facade (one search: through FTS5) answers it. */
    const expectFreshAnswers = async () => {
      for (const query of QUERIES) {
        const fresh = withModel();
        try {
          const expected = summarize(await fresh.search({ query, limit: 5 }));
          expect(summarize(await facade.search({ query, limit: 5 }))).toEqual(expected);
        } finally {
          await fresh.close();
        }
      }
    };
    try {
      await indexer.index({ shouldPauseEmbedding: () => true }); // the text, one vector
      await facade.search({ query: 'warm up', limit: 5 });
      await facade.search({ query: 'warm up', limit: 5 });
      expect(load).toHaveBeenCalledTimes(1);

      const rest = await indexer.index(); // only vectors are committed now
      expect(rest.embeddedChunks).toBeGreaterThan(0);
      await expectFreshAnswers();
      expect(load).toHaveBeenCalledTimes(1);

      // A text change: the snapshot applies the changed rows (no whole load) and still answers as a fresh one.
      kb.write('ops/backup.md', note('Backups', ['Backup keys are now rotated weekly.']));
      await indexer.index();
      await expectFreshAnswers();
      expect(load).toHaveBeenCalledTimes(1);
    } finally {
      await facade.close();
      await indexer.close();
    }
  });
});
