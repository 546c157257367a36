// Which indexed document a stored link means: the path itself (with or without .md), exact case first, then the
// wikilink's Obsidian-style name match, ties broken by the shortest path and then code-unit order.
import { describe, expect, it } from 'vitest';
import {
  documentNameKeys,
  isNoteTarget,
  linkNameKey,
  resolveNoteLink,
  type StoredLink,
} from '../../src/document/resolve-note-link.js';

const md = (target: string, source = 'notes/here.md'): StoredLink => ({
  source,
  kind: 'markdown',
  target,
  anchored: true,
});
const wiki = (target: string, source = 'notes/here.md', anchored = false): StoredLink => ({
  source,
  kind: 'wikilink',
  target,
  anchored,
});

describe('resolveNoteLink', () => {
  it('a Markdown link names one path, with or without .md, exact case before folded case', () => {
    const docs = ['notes/setup.md', 'notes/Setup.md', 'other/setup.md', 'notes/plain.txt'];
    expect(resolveNoteLink(md('notes/setup.md'), docs)).toBe('notes/setup.md');
    expect(resolveNoteLink(md('notes/Setup'), docs)).toBe('notes/Setup.md');
    expect(resolveNoteLink(md('NOTES/SETUP.MD'), ['notes/Setup.md', 'x/setup.md'])).toBe('notes/Setup.md');
    expect(resolveNoteLink(md('notes/plain.txt'), docs)).toBe('notes/plain.txt');
    // Only a Markdown file may be named without its extension.
    expect(resolveNoteLink(md('notes/plain'), docs)).toBeNull();
    // A Markdown link never falls back to a file-name match elsewhere.
    expect(resolveNoteLink(md('notes/missing/setup.md'), docs)).toBeNull();
  });

  it('a link to a built page (mdBook: chapter.html) means its Markdown source when that is indexed', () => {
    const docs = ['src/ch16-03-shared-state.md', 'src/appendix.txt'];
    const link = md('src/ch16-03-shared-state.html', 'src/ch16-00.md');
    expect(linkNameKey(link.target)).toBe('ch16-03-shared-state');
    expect(documentNameKeys(docs[0]!)).toContain(linkNameKey(link.target));
    expect(resolveNoteLink(link, docs)).toBe('src/ch16-03-shared-state.md');
    expect(resolveNoteLink(md('src/CH16-03-Shared-State.HTM'), docs)).toBe('src/ch16-03-shared-state.md');
    // Only a Markdown source: a .txt is not what a page is built from; a missing source stays unresolved.
    expect(resolveNoteLink(md('src/appendix.html'), docs)).toBeNull();
    expect(resolveNoteLink(md('src/missing.html'), docs)).toBeNull();
    expect(linkNameKey('.html')).toBe('.html');
  });

  it('a wikilink name: the path from the root, then from the note folder, then a unique file name', () => {
    const docs = ['Topic.md', 'notes/Topic.md', 'notes/Local.md', 'deep/far/Unique.md'];
    expect(resolveNoteLink(wiki('Topic'), docs)).toBe('Topic.md');
    expect(resolveNoteLink(wiki('Local'), docs)).toBe('notes/Local.md');
    expect(resolveNoteLink(wiki('unique'), docs)).toBe('deep/far/Unique.md');
    expect(resolveNoteLink(wiki('far/Unique'), docs)).toBe('deep/far/Unique.md');
    expect(resolveNoteLink(wiki('ar/Unique'), docs)).toBeNull(); // a suffix must start at a folder boundary
    expect(resolveNoteLink(wiki('Unique.md'), docs)).toBe('deep/far/Unique.md');
  });

  it('an ambiguous name goes to the shortest path, then the first in code-unit order', () => {
    expect(resolveNoteLink(wiki('Name'), ['b/long/Name.md', 'b/Name.md', 'a/Name.md'])).toBe('a/Name.md');
    expect(resolveNoteLink(wiki('Name'), ['zz/Name.md', 'a/b/Name.md'])).toBe('zz/Name.md');
  });

  it('an anchored wikilink (./, ../, /) is a path only', () => {
    expect(resolveNoteLink(wiki('notes/Up', 'notes/sub/x.md', true), ['notes/Up.md'])).toBe('notes/Up.md');
    expect(resolveNoteLink(wiki('elsewhere/Up', 'notes/x.md', true), ['notes/Up.md'])).toBeNull();
  });

  it('folds case and Unicode form (NFC) for names', () => {
    const nfd = 'cafe\u0301.md';
    expect(resolveNoteLink(wiki('CAFÉ'), [nfd])).toBe(nfd);
    expect(resolveNoteLink(wiki('ガイド'), ['docs/ガイド.md'])).toBe('docs/ガイド.md');
  });

  it('resolves nothing among no candidates', () => {
    expect(resolveNoteLink(wiki('x'), [])).toBeNull();
  });
});

describe('lookup keys', () => {
  it("a link's key is one of the keys of every document it can resolve to", () => {
    const cases: [StoredLink, string][] = [
      [md('notes/setup'), 'notes/setup.md'],
      [md('notes/setup.md'), 'notes/setup.md'],
      [wiki('far/Unique'), 'deep/far/unique.md'],
      [wiki('v1.2'), 'v1.2.md'],
      [md('a/b.txt'), 'a/b.txt'],
    ];
    for (const [link, doc] of cases) {
      expect(resolveNoteLink(link, [doc])).toBe(doc);
      expect(documentNameKeys(doc)).toContain(linkNameKey(link.target));
    }
    expect(documentNameKeys('a/B.md')).toEqual(['b.md', 'b']);
    expect(documentNameKeys('a/B.txt')).toEqual(['b.txt']);
  });
});

describe('isNoteTarget', () => {
  it('a target with an extension groove does not index is an attachment, anything else a note', () => {
    expect(isNoteTarget('missing', ['md'])).toBe(true);
    expect(isNoteTarget('a/missing.md', ['md'])).toBe(true);
    expect(isNoteTarget('v1.2', ['md'])).toBe(true);
    expect(isNoteTarget('Mr. Smith', ['md'])).toBe(true);
    expect(isNoteTarget('diagram.png', ['md'])).toBe(false);
    expect(isNoteTarget('notes.TXT', ['md', 'txt'])).toBe(true);
    expect(isNoteTarget('notes.txt', ['md'])).toBe(false);
  });
});
