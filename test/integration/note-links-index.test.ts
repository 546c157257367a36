// Note links through the real indexer and a real SQLite index: parsed at index time, replaced with their note,
// dropped with it, resolved at read time (so a target indexed later, moved or removed is answered for the files
// indexed now), counted by status, and filled in for an index from schema 3 by its next `groove index`.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { createLinkReader } from '../../src/store/link-edges.js';
import type { LinkEdge } from '../../src/types.js';
import { createTempKb, type TempKb } from '../support/temp-kb.js';

const kbs: TempKb[] = [];
afterEach(() => {
  for (const kb of kbs.splice(0)) kb.cleanup();
});

function linkedKb(): TempKb {
  const kb = createTempKb({
    'notes/a.md': [
      '# A',
      '',
      'See [B](b.md), [[Cee]] and [[Missing note]], then ![[diagram.png]] and [the web](https://example.com).',
      'Itself: [[a]]. In code: `[x](code.md)`.',
      '',
    ].join('\n'),
    'notes/b.md': '# B\n\nBack to [A](./a.md#A) and again [[A#A]].\n',
    'topics/Cee.md': '# Cee\n\nNo links here.\n',
  });
  kbs.push(kb);
  return kb;
}

async function index(kb: TempKb, toml?: string): Promise<void> {
  const facade = openKnowledgeBase(kb.config({ toml, overrides: { model: 'none' } }));
  try {
    await facade.index();
  } finally {
    await facade.close();
  }
}

/** The store read search uses, on its own read-only connection. */
function edges(kb: TempKb, paths: string[]): string[] {
  const db = new Database(kb.dbPath, { readonly: true });
  try {
    return createLinkReader(db).readLinkEdges(paths).map(show);
  } finally {
    db.close();
  }
}

const show = (edge: LinkEdge) => `${edge.source} -${edge.kind}-> ${edge.target}`;

function linkRows(kb: TempKb): { source: string; kind: string; written: string; target: string }[] {
  const db = new Database(kb.dbPath, { readonly: true });
  try {
    return db
      .prepare(`SELECT d.path AS source, l.kind, l.written, l.target FROM links l
        JOIN documents d ON d.id = l.document_id ORDER BY d.path, l.position`)
      .all() as { source: string; kind: string; written: string; target: string }[];
  } finally {
    db.close();
  }
}

function status(kb: TempKb) {
  const facade = openKnowledgeBase(kb.config({ overrides: { model: 'none' } }));
  try {
    return facade.status();
  } finally {
    void facade.close();
  }
}

describe('links in the index', () => {
  it('stores each note link as written and answers edges touching the asked documents, both ways', async () => {
    const kb = linkedKb();
    await index(kb);
    expect(linkRows(kb)).toEqual([
      { source: 'notes/a.md', kind: 'markdown', written: 'b.md', target: 'notes/b.md' },
      { source: 'notes/a.md', kind: 'wikilink', written: 'Cee', target: 'Cee' },
      { source: 'notes/a.md', kind: 'wikilink', written: 'Missing note', target: 'Missing note' },
      { source: 'notes/a.md', kind: 'wikilink', written: 'diagram.png', target: 'diagram.png' },
      { source: 'notes/a.md', kind: 'wikilink', written: 'a', target: 'a' },
      { source: 'notes/b.md', kind: 'markdown', written: './a.md#A', target: 'notes/a.md' },
      { source: 'notes/b.md', kind: 'wikilink', written: 'A#A', target: 'A' },
    ]);
    // Self-links are dropped, the two kinds of b → a are two edges, a duplicate of one kind is one.
    expect(edges(kb, ['notes/a.md'])).toEqual([
      'notes/a.md -markdown-> notes/b.md',
      'notes/a.md -wikilink-> topics/Cee.md',
      'notes/b.md -markdown-> notes/a.md',
      'notes/b.md -wikilink-> notes/a.md',
    ]);
    expect(edges(kb, ['topics/Cee.md'])).toEqual(['notes/a.md -wikilink-> topics/Cee.md']);
    expect(edges(kb, ['nowhere.md'])).toEqual([]);
    expect(edges(kb, [])).toEqual([]);
    // Missing note names a note; diagram.png is an attachment groove does not index.
    expect(status(kb)).toMatchObject({ links: 7, danglingLinks: 1 });
  });

  it('an mdBook cross-link to chapter.html is an edge to the indexed chapter.md', async () => {
    const kb = createTempKb({
      'src/ch16-00-concurrency.md':
        '# Fearless Concurrency\n\nSee [shared state](ch16-03-shared-state.html#mutex).\n',
      'src/ch16-03-shared-state.md': '## Shared-State Concurrency\n\nMutexes and Arc.\n',
    });
    kbs.push(kb);
    await index(kb);
    expect(edges(kb, ['src/ch16-03-shared-state.md'])).toEqual([
      'src/ch16-00-concurrency.md -markdown-> src/ch16-03-shared-state.md',
    ]);
    expect(status(kb)).toMatchObject({ links: 1, danglingLinks: 0 });
  });

  it('an edit replaces the note’s links; a target indexed later resolves without re-reading the note', async () => {
    const kb = linkedKb();
    await index(kb);
    kb.write('notes/a.md', '# A\n\nNow only [[Later]].\n');
    await index(kb);
    expect(
      linkRows(kb)
        .filter((row) => row.source === 'notes/a.md')
        .map((row) => row.target),
    ).toEqual(['Later']);
    expect(edges(kb, ['notes/a.md'])).toEqual([
      'notes/b.md -markdown-> notes/a.md',
      'notes/b.md -wikilink-> notes/a.md',
    ]);
    expect(status(kb)).toMatchObject({ links: 3, danglingLinks: 1 });

    kb.write('elsewhere/later.md', '# Later\n\nPlain.\n');
    await index(kb); // notes/a.md is unchanged and not re-read
    expect(edges(kb, ['elsewhere/later.md'])).toEqual(['notes/a.md -wikilink-> elsewhere/later.md']);
    expect(status(kb)).toMatchObject({ links: 3, danglingLinks: 0 });
  });

  it('deleting a note drops its links and the edges to it; renaming moves them', async () => {
    const kb = linkedKb();
    await index(kb);
    kb.remove('notes/b.md');
    await index(kb);
    expect(linkRows(kb).some((row) => row.source === 'notes/b.md')).toBe(false);
    expect(edges(kb, ['notes/a.md'])).toEqual(['notes/a.md -wikilink-> topics/Cee.md']);

    // The wikilink finds Cee by name wherever it moves; the note that links keeps its links under its new path.
    kb.move('topics/Cee.md', 'archive/old/Cee.md');
    kb.move('notes/a.md', 'notes/moved-a.md');
    await index(kb);
    expect(edges(kb, ['notes/moved-a.md'])).toEqual(['notes/moved-a.md -wikilink-> archive/old/Cee.md']);
    expect(edges(kb, ['notes/a.md'])).toEqual([]);

    // A Markdown link is a path: when its target moves away, it dangles; when it comes back, it resolves.
    // (a's own `b.md` resolves again once b is back.)
    kb.write('notes/b.md', '# B\n\n[to moved](moved-a.md)\n');
    await index(kb);
    expect(edges(kb, ['notes/b.md'])).toEqual([
      'notes/b.md -markdown-> notes/moved-a.md',
      'notes/moved-a.md -markdown-> notes/b.md',
    ]);
    kb.move('notes/moved-a.md', 'notes/a.md');
    await index(kb);
    expect(edges(kb, ['notes/b.md'])).toEqual(['notes/a.md -markdown-> notes/b.md']);
    expect(status(kb).danglingLinks).toBe(2); // b's link to moved-a.md, and a's [[Missing note]]
  });

  it('a forced rebuild has the same links', async () => {
    const kb = linkedKb();
    await index(kb);
    const before = linkRows(kb);
    const facade = openKnowledgeBase(kb.config({ overrides: { model: 'none' } }));
    try {
      await facade.index({ force: true });
    } finally {
      await facade.close();
    }
    expect(linkRows(kb)).toEqual(before);
  });
});

describe('an index from schema 3', () => {
  /** What a schema-3 index looks like: no link tables, its version, a chunk policy without the link rules. */
  function downgradeToSchema3(kb: TempKb): void {
    const db = new Database(kb.dbPath);
    try {
      db.exec('DROP TABLE links; DROP TABLE document_names');
      db.prepare("UPDATE index_meta SET value = '3' WHERE key = 'schema_version'").run();
      const policy = JSON.parse(
        db.prepare("SELECT value FROM index_meta WHERE key = 'chunk_policy'").pluck().get() as string,
      );
      delete policy.links;
      db.prepare("UPDATE index_meta SET value = ? WHERE key = 'chunk_policy'").run(JSON.stringify(policy));
    } finally {
      db.close();
    }
  }

  it('gets every note’s links on its next groove index, even with no file changed', async () => {
    const kb = linkedKb();
    await index(kb);
    const expected = edges(kb, ['notes/a.md']);
    downgradeToSchema3(kb);
    expect(status(kb)).toMatchObject({ schemaVersion: 5, links: 0 }); // migrated: the tables exist, empty
    await index(kb);
    expect(edges(kb, ['notes/a.md'])).toEqual(expected);
    expect(status(kb)).toMatchObject({ schemaVersion: 5, links: 7, danglingLinks: 1 });
  });

  it('a note refused by that run keeps its old rows and is still found by the links of others', async () => {
    const kb = linkedKb();
    kb.write('topics/Cee.md', `# Cee\n\n${'Long text. '.repeat(200)}\n`);
    await index(kb);
    downgradeToSchema3(kb);
    // Cee is now over the size cap: the run keeps its schema-3 rows (no names of its own) and warns.
    await index(kb, '[index]\nmax_file_size = 1024\n');
    expect(edges(kb, ['topics/Cee.md'])).toEqual(['notes/a.md -wikilink-> topics/Cee.md']);
  });
});
