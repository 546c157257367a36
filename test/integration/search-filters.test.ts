// Filters through the real pipeline on a real index, including a filtered search on a long-lived facade that must
// see documents indexed after its first search (the per-session document-facts cache follows SQLite's data_version).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';

let kb: TempKb;
beforeEach(() => {
  kb = createTempKb({
    'ops/backup.md': noteText('backup', { tags: ['ops', 'postgres'] }),
    'ops/release.md': noteText('release', { tags: ['ops'] }),
    'guides/setup.md': noteText('setup', { tags: ['guide'] }),
  });
});
afterEach(() => kb.cleanup());

const paths = (response: { results: { path: string }[] }) => [
  ...new Set(response.results.map((r) => r.path)),
];

describe('search filters', () => {
  it('applies category, tags and path globs, and sees documents indexed after the first search', async () => {
    const facade = openKnowledgeBase(kb.config({ overrides: { model: 'none' } }));
    try {
      await facade.index();
      const query = { query: 'first section talks', limit: 10 };
      expect(paths(await facade.search({ ...query, category: 'ops' })).sort()).toEqual([
        'ops/backup.md',
        'ops/release.md',
      ]);
      expect(paths(await facade.search({ ...query, tagsAll: ['ops', 'postgres'] }))).toEqual([
        'ops/backup.md',
      ]);
      expect(paths(await facade.search({ ...query, pathGlobs: ['**/*.md', '!ops/**'] }))).toEqual([
        'guides/setup.md',
      ]);

      kb.write('ops/restore.md', noteText('restore', { tags: ['ops', 'postgres'] }));
      await facade.index();
      const after = paths(await facade.search({ ...query, tagsAll: ['ops', 'postgres'] })).sort();
      expect(after).toEqual(['ops/backup.md', 'ops/restore.md']);
    } finally {
      await facade.close();
    }
  });
});
