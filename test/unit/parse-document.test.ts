import { describe, expect, it } from 'vitest';
import {
  deriveChunkSignature,
  type ParseOptions,
  parseDocument,
  titleFromFileName,
} from '../../src/document/parse-document.js';

const OPTIONS: ParseOptions = {
  maxHeadingLevel: 3,
  maxChunkBytes: 4000,
  minChunkBytes: 50,
  excludeHeadings: [],
};
const FILLER = 'This paragraph is long enough to stand as a chunk of its own, really.';

function parseMd(path: string, text: string, options: Partial<ParseOptions> = {}) {
  return parseDocument({ path, text, format: 'md', options: { ...OPTIONS, ...options } });
}

describe('parseDocument (md)', () => {
  it('uses the frontmatter title and puts it first in every breadcrumb', () => {
    const doc = parseMd('guide.md', `---\ntitle: The Guide\n---\n## Install\n${FILLER}\n`);
    expect(doc.title).toBe('The Guide');
    expect(doc.metadata.title).toBe('The Guide');
    expect(doc.chunks[0]!.breadcrumb).toBe('The Guide > Install');
  });

  it('without a frontmatter title, takes the heading the note opens with, at any level (mdBook opens at ##)', () => {
    const mdBook = parseMd(
      'src/ch16-03-shared-state.md',
      `\n## Shared-State Concurrency\n${FILLER}\n### Mutex\n${FILLER}\n`,
    );
    expect(mdBook.title).toBe('Shared-State Concurrency');
    expect(mdBook.metadata.title).toBeNull();
    expect(mdBook.chunks.map((c) => c.breadcrumb)).toEqual([
      'Shared-State Concurrency',
      'Shared-State Concurrency > Mutex',
    ]);
    expect(parseMd('a.md', `\uFEFF# Top ##\r\n${FILLER}\r\n`).title).toBe('Top');
    expect(parseMd('a.md', `---\ntags: [x]\n---\n\n# After frontmatter\n${FILLER}\n`).title).toBe(
      'After frontmatter',
    );
  });

  it('falls back to a title derived from the file name when the note does not open with a heading', () => {
    const doc = parseMd('notes/my-first__note.md', `${FILLER}\n\n## A\n${FILLER}\n`);
    expect(doc.title).toBe('my first note');
    expect(doc.metadata.title).toBeNull();
    expect(doc.chunks[1]!.breadcrumb).toBe('my first note > A');
    expect(parseMd('notes/code.md', '```\n# not a heading\n```\n').title).toBe('code');
    expect(parseMd('notes/empty-heading.md', `#\n${FILLER}\n`).title).toBe('empty heading');
  });

  it('derives category and topic from the path, preferring the frontmatter topic', () => {
    expect(parseMd('a.md', FILLER)).toMatchObject({ category: null, topic: null });
    expect(parseMd('cat/a.md', FILLER)).toMatchObject({ category: 'cat', topic: null });
    expect(parseMd('cat/sub/deep/a.md', FILLER)).toMatchObject({ category: 'cat', topic: 'sub' });
    expect(parseMd('cat/sub/a.md', `---\ntopic: chosen\n---\n${FILLER}`)).toMatchObject({
      category: 'cat',
      topic: 'chosen',
    });
    expect(parseMd('cat/a.md', `---\ntopic: chosen\n---\n${FILLER}`).topic).toBe('chosen');
  });

  it('still chunks the body of a file with broken frontmatter and reports the error', () => {
    const text = `---\ntitle: [unclosed\n---\n## Body\n${FILLER}\n`;
    const doc = parseMd('x/broken.md', text);
    expect(doc.frontmatterError).toMatch(/invalid YAML frontmatter/);
    expect(doc.title).toBe('Body'); // the heading the body opens with
    expect(doc.chunks.map((c) => c.heading)).toEqual(['Body']);
    const slice = Buffer.from(text).subarray(doc.chunks[0]!.byteStart, doc.chunks[0]!.byteEnd).toString();
    expect(slice).toBe(`## Body\n${FILLER}\n`);
  });

  it('keeps byte offsets relative to the original file with BOM, CRLF frontmatter and Japanese text', () => {
    const text = `\uFEFF---\r\ntitle: 梅雨\r\ntags: [気象, 季節]\r\n---\r\n## 段落 1\r\n梅雨は、北海道と小笠原諸島を除く日本で見られる雨の季節である。\r\n## 段落 2\r\n${FILLER}\r\n`;
    const doc = parseMd('梅雨.md', text);
    expect(doc.frontmatterError).toBeNull();
    expect(doc.metadata.tags).toEqual(['気象', '季節']);
    const bytes = Buffer.from(text);
    expect(doc.chunks.map((c) => bytes.subarray(c.byteStart, c.byteEnd).toString())).toEqual([
      '## 段落 1\r\n梅雨は、北海道と小笠原諸島を除く日本で見られる雨の季節である。\r\n',
      `## 段落 2\r\n${FILLER}\r\n`,
    ]);
    expect(doc.chunks[0]!.content).toBe('梅雨は、北海道と小笠原諸島を除く日本で見られる雨の季節である。');
    expect(doc.chunks[0]!.breadcrumb).toBe('梅雨 > 段落 1');
  });

  it('returns zero chunks for an empty file or one with only frontmatter', () => {
    expect(parseMd('empty.md', '').chunks).toEqual([]);
    expect(parseMd('fm.md', '---\ntitle: Only\n---\n').chunks).toEqual([]);
  });

  it('passes excludeHeadings and heading level options through', () => {
    const text = `## Keep\n${FILLER}\n## Draft\n${FILLER}\n### Deep\n${FILLER}\n`;
    expect(parseMd('a.md', text, { excludeHeadings: ['Draft'] }).chunks.map((c) => c.heading)).toEqual([
      'Keep',
    ]);
    expect(parseMd('a.md', text, { maxHeadingLevel: 2 }).chunks.map((c) => c.heading)).toEqual([
      'Keep',
      'Draft',
    ]);
  });
});

describe('parseDocument (txt)', () => {
  it('packs paragraphs into heading-less chunks titled after the file, ignoring frontmatter and Markdown', () => {
    const paragraphs = Array.from({ length: 6 }, (_, i) => `Paragraph ${i} `.padEnd(150, 'p'));
    const text = `---\ntitle: not frontmatter\n---\n# not a heading\n\n${paragraphs.join('\n\n')}\n`;
    const doc = parseDocument({
      path: 'docs/plain_notes.txt',
      text,
      format: 'txt',
      options: { ...OPTIONS, maxChunkBytes: 400 },
    });
    expect(doc.title).toBe('plain notes');
    expect(doc.frontmatterError).toBeNull();
    expect(doc.metadata.title).toBeNull();
    expect(doc.category).toBe('docs');
    expect(doc.chunks.length).toBeGreaterThan(1);
    for (const c of doc.chunks) {
      expect(c).toMatchObject({ heading: null, level: null, breadcrumb: 'plain notes' });
      expect(Buffer.byteLength(c.content)).toBeLessThanOrEqual(400);
    }
    expect(doc.chunks[0]!.content.startsWith('---\ntitle: not frontmatter\n---\n# not a heading')).toBe(true);
    expect(doc.chunks[0]!.byteStart).toBe(0);
    expect(doc.chunks[doc.chunks.length - 1]!.byteEnd).toBe(Buffer.byteLength(text));
  });

  it('skips a BOM in offsets and gives zero chunks for a blank file', () => {
    const doc = parseDocument({ path: 'a.txt', text: '\uFEFFhello\n', format: 'txt', options: OPTIONS });
    expect(doc.chunks).toHaveLength(1);
    expect(doc.chunks[0]).toMatchObject({ content: 'hello', byteStart: 3, byteEnd: 9 });
    expect(parseDocument({ path: 'b.txt', text: ' \n\n', format: 'txt', options: OPTIONS }).chunks).toEqual(
      [],
    );
  });
});

describe('titleFromFileName', () => {
  it('turns the stem into words', () => {
    expect(titleFromFileName('a/b/hello-world_again.md')).toBe('hello world again');
    expect(titleFromFileName('x/  spaced -- name .txt')).toBe('spaced name');
    expect(titleFromFileName('archive.tar.gz')).toBe('archive.tar');
    expect(titleFromFileName('README')).toBe('README');
    expect(titleFromFileName('.hidden')).toBe('.hidden');
    expect(titleFromFileName('---.md')).toBe('---.md');
  });
});

describe('deriveChunkSignature', () => {
  const body = `## Install\n${FILLER}\n## Usage\n${FILLER}\n`;

  it('is unchanged by a frontmatter-only edit, even though byte offsets move', () => {
    const before = parseMd('a.md', `---\ntitle: T\ntags: [a]\n---\n${body}`);
    const after = parseMd('a.md', `---\ntitle: T\ntags: [a, b, c]\nauthor: someone\n---\n${body}`);
    expect(after.chunks[0]!.byteStart).not.toBe(before.chunks[0]!.byteStart);
    expect(deriveChunkSignature(after.chunks)).toBe(deriveChunkSignature(before.chunks));
  });

  it('changes when content, a heading or the level changes', () => {
    const base = deriveChunkSignature(parseMd('a.md', body).chunks);
    expect(deriveChunkSignature(parseMd('a.md', body.replace('Usage', 'Use')).chunks)).not.toBe(base);
    expect(deriveChunkSignature(parseMd('a.md', body.replace('## Usage', '### Usage')).chunks)).not.toBe(
      base,
    );
    expect(deriveChunkSignature(parseMd('a.md', `${body}more\n`).chunks)).not.toBe(base);
  });

  it('includes breadcrumbs (hence the title) unless asked not to', () => {
    const one = parseMd('a.md', `---\ntitle: One\n---\n${body}`).chunks;
    const two = parseMd('a.md', `---\ntitle: Two\n---\n${body}`).chunks;
    expect(deriveChunkSignature(one)).not.toBe(deriveChunkSignature(two));
    expect(deriveChunkSignature(one, { includeBreadcrumb: false })).toBe(
      deriveChunkSignature(two, { includeBreadcrumb: false }),
    );
  });
});
