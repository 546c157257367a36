// A PostgreSQL server without pgvector (PGlite started without the extension, as Debian's postgresql-15 ships):
// an index with a model is refused up front with STORAGE_EXTENSION_MISSING; a lexical-only KB works all the same.
import { describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { HashEmbedder } from '../support/hash-embedder.js';
import { usePgliteServer } from '../support/pglite-server.js';
import { createTempKb } from '../support/temp-kb.js';

const pgServer = usePgliteServer({ withVector: false });

const NOTES = {
  'a.md': '# Alpha\n\nThe alpha release notes list every change since the last version of the app.\n',
  'b.md': '# Beta\n\nBeta testers are wanted: sign up to try new versions of the app before release.\n',
  'c.md': '# Gamma\n\nGamma rays and other radiation are measured by the sensors on the roof.\n',
  'd.md': '# Delta\n\nThe river delta floods in spring, so the field trips move to the summer.\n',
};

function storageToml(kb: string, model: string): string {
  return `model = "${model}"\n[storage]\nbackend = "postgres"\nurl = "${pgServer().url}"\nkb = "${kb}"\n`;
}

describe('postgres backend on a server without pgvector', () => {
  it('refuses an index with a model before embedding anything, saying pgvector is missing', async () => {
    const temp = createTempKb(NOTES);
    const embedder = new HashEmbedder({ dimension: 16 });
    const kb = openKnowledgeBase(temp.config({ toml: storageToml('with-model', 'hash') }), {
      createEmbedder: async () => embedder,
    });
    try {
      const failure = await kb.index().catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'STORAGE_EXTENSION_MISSING' });
      expect((failure as Error).message).toContain(`127.0.0.1:${pgServer().port}`);
      expect((failure as Error).message).toContain('pgvector');
      expect((failure as Error).message).not.toContain('not-a-secret');
      expect(embedder.embeddedTexts).toBe(0);
      const stored = await pgServer().query<{ n: number }>(
        `SELECT count(*)::int AS n FROM groove_kbs WHERE name = 'with-model'`,
      );
      expect(stored[0]!.n).toBe(0);
    } finally {
      await kb.close();
      temp.cleanup();
    }
  });

  it('indexes and searches a lexical-only KB', async () => {
    const temp = createTempKb(NOTES);
    const kb = openKnowledgeBase(temp.config({ toml: storageToml('lexical', 'none') }));
    try {
      expect(await kb.index()).toMatchObject({ indexed: 4 });
      const response = await kb.search({ query: 'beta testers' });
      expect(response.results[0]?.path).toBe('b.md');
      expect(await kb.describe()).toMatchObject({ documents: 4, model: 'none' });
    } finally {
      await kb.close();
      temp.cleanup();
    }
  });
});
