import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ChunkMarkdownOptions, chunkMarkdown } from '../../src/document/chunk-markdown.js';
import type { ChunkDraft } from '../../src/types.js';

const BASE: ChunkMarkdownOptions = {
  title: 'Doc',
  maxHeadingLevel: 3,
  maxChunkBytes: 4000,
  minChunkBytes: 50,
};
/** Long enough (> 50 bytes) that a section holding it is never merged. */
const FILLER = 'This paragraph is long enough to stand as a chunk of its own, really.';

function chunk(body: string, options: Partial<ChunkMarkdownOptions> = {}): ChunkDraft[] {
  return chunkMarkdown(body, { ...BASE, ...options });
}

function sliceBytes(text: string, c: ChunkDraft, base = 0): string {
  return Buffer.from(text)
    .subarray(c.byteStart - base, c.byteEnd - base)
    .toString();
}

describe('chunkMarkdown: headings', () => {
  it('starts a section at each H1–H3 and keeps the heading out of the content', () => {
    const body = `# One\n${FILLER}\n## Two\n${FILLER}\n### Three\n${FILLER}\n#### Four\n${FILLER}\n`;
    const chunks = chunk(body);
    expect(chunks.map((c) => [c.heading, c.level])).toEqual([
      ['One', 1],
      ['Two', 2],
      ['Three', 3],
    ]);
    expect(chunks[0]!.content).toBe(FILLER);
    expect(chunks[2]!.content).toBe(`${FILLER}\n#### Four\n${FILLER}`);
    expect(chunks.map((c) => c.index)).toEqual([0, 1, 2]);
  });

  it('honours maxHeadingLevel', () => {
    const body = `# One\n${FILLER}\n## Two\n${FILLER}\n### Three\n${FILLER}\n`;
    expect(chunk(body, { maxHeadingLevel: 2 }).map((c) => c.heading)).toEqual(['One', 'Two']);
    expect(chunk(body, { maxHeadingLevel: 1 }).map((c) => c.heading)).toEqual(['One']);
    const six = `###### Six\n${FILLER}\n####### Seven\n${FILLER}\n`;
    expect(chunk(six, { maxHeadingLevel: 6 }).map((c) => [c.heading, c.level])).toEqual([['Six', 6]]);
  });

  it('follows ATX rules: space after #, at most 3 spaces of indent, closing # run stripped', () => {
    const body = [
      '#hashtag is not a heading',
      FILLER,
      '   ## Indented three ##',
      FILLER,
      '    ## Indented four is code',
      FILLER,
      '## C#',
      FILLER,
      '##\tTabbed   #####   ',
      FILLER,
      '#',
      FILLER,
    ].join('\n');
    const chunks = chunk(body);
    expect(chunks.map((c) => c.heading)).toEqual([null, 'Indented three', 'C#', 'Tabbed', '']);
    expect(chunks[1]!.content).toContain('    ## Indented four is code');
  });

  it('never treats # lines inside ``` or ~~~ fences as headings', () => {
    const body = [
      '## Real',
      '```bash',
      '# a shell comment',
      '## another',
      '```',
      '~~~',
      '# tilde comment',
      '```',
      '# still inside: ``` does not close ~~~',
      '~~~',
      FILLER,
      '## Next',
      FILLER,
    ].join('\n');
    const chunks = chunk(body);
    expect(chunks.map((c) => c.heading)).toEqual(['Real', 'Next']);
    expect(chunks[0]!.content).toContain('# still inside');
  });

  it('closes a fence only with the same character, at least as long, indented at most 3', () => {
    const body = [
      '## A',
      '````',
      '```',
      '# inside',
      '    ````',
      '# inside too',
      '  `````  ',
      '## B',
      FILLER,
    ].join('\n');
    const chunks = chunk(body, { minChunkBytes: 0 });
    expect(chunks.map((c) => c.heading)).toEqual(['A', 'B']);
  });

  it('lets an unclosed fence run to the end of the text', () => {
    const body = `## A\n${FILLER}\n\`\`\`\n# not a heading\n## nor this\n`;
    const chunks = chunk(body);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.content).toContain('## nor this');
  });

  it('does not open a fence with an inline code span', () => {
    const body = `## A\n\`\`\`js\` is inline\n## B\n${FILLER}\n`;
    expect(chunk(body, { minChunkBytes: 0 }).map((c) => c.heading)).toEqual(['A', 'B']);
  });

  it('ignores setext headings (they stay body text)', () => {
    const chunks = chunk(`Title\n=====\n${FILLER}\n`);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.heading).toBeNull();
  });
});

describe('chunkMarkdown: preamble and empty input', () => {
  it('returns no chunks for an empty or blank body', () => {
    expect(chunk('')).toEqual([]);
    expect(chunk('\n  \n\t\n')).toEqual([]);
  });

  it('makes a heading-less chunk of non-blank text before the first heading', () => {
    const chunks = chunk(`${FILLER}\n\n## A\n${FILLER}\n`);
    expect(chunks.map((c) => [c.heading, c.level, c.breadcrumb])).toEqual([
      [null, null, 'Doc'],
      ['A', 2, 'Doc > A'],
    ]);
  });

  it('skips a blank preamble', () => {
    expect(chunk(`\n\n## A\n${FILLER}\n`).map((c) => c.heading)).toEqual(['A']);
  });

  it('trims blank lines around content and normalises CRLF', () => {
    const chunks = chunk(`## A\r\n\r\n  indented line\r\nsecond ${FILLER}\r\n\r\n\r\n`);
    expect(chunks[0]!.content).toBe(`  indented line\nsecond ${FILLER}`);
  });
});

describe('chunkMarkdown: merging tiny sections', () => {
  it('appends a tiny section to its predecessor with its heading as a Markdown line', () => {
    const body = `## A\n${FILLER}\n### Tiny\nsmall\n## B\n${FILLER}\n`;
    const chunks = chunk(body);
    expect(chunks.map((c) => c.heading)).toEqual(['A', 'B']);
    expect(chunks[0]!.content).toBe(`${FILLER}\n\n### Tiny\nsmall`);
    expect(chunks[0]!.level).toBe(2);
    expect(sliceBytes(body, chunks[0]!)).toBe(`## A\n${FILLER}\n### Tiny\nsmall\n`);
  });

  it('merges a heading-only section as just its heading line', () => {
    const chunks = chunk(`## A\n${FILLER}\n## Empty\n`);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.content).toBe(`${FILLER}\n\n## Empty`);
  });

  it('merges a tiny first section forward into the next one, which keeps its heading', () => {
    const body = `# Title\nshort intro\n## Usage\n${FILLER}\n`;
    const chunks = chunk(body);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.heading).toBe('Usage');
    expect(chunks[0]!.content).toBe(`# Title\nshort intro\n\n${FILLER}`);
    expect(chunks[0]!.byteStart).toBe(0);
    expect(chunks[0]!.byteEnd).toBe(Buffer.byteLength(body));
  });

  it('merges a tiny preamble forward without a heading line', () => {
    const chunks = chunk(`intro\n## Usage\n${FILLER}\n`);
    expect(chunks.map((c) => c.content)).toEqual([`intro\n\n${FILLER}`]);
  });

  it('keeps a tiny section when it is the only one', () => {
    const chunks = chunk('# Only\ntiny\n');
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ heading: 'Only', level: 1, content: 'tiny', tokenCount: 1 });
  });

  it('chains several tiny sections into one chunk', () => {
    const chunks = chunk('## a\nx\n## b\ny\n## c\nz\n');
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.heading).toBe('b');
    expect(chunks[0]!.content).toBe('## a\nx\n\ny\n\n## c\nz');
  });

  it('measures tininess in trimmed UTF-8 bytes', () => {
    // 17 Japanese characters = 51 bytes: not tiny even though it is under 50 characters.
    const chunks = chunk(`## A\n${FILLER}\n## 日本\n${'あ'.repeat(17)}\n`);
    expect(chunks.map((c) => c.heading)).toEqual(['A', '日本']);
    const merged = chunk(`## A\n${FILLER}\n## 日本\n${'あ'.repeat(16)}\n`);
    expect(merged.map((c) => c.heading)).toEqual(['A']);
  });

  it('does not merge when the result would exceed maxChunkBytes', () => {
    const big = 'b'.repeat(295);
    const chunks = chunk(`## A\n${big}\n## Tiny\nsmall\n`, { maxChunkBytes: 300 });
    expect(chunks.map((c) => c.heading)).toEqual(['A', 'Tiny']);
  });

  it('disables merging with minChunkBytes 0', () => {
    expect(chunk('## a\nx\n## b\ny\n', { minChunkBytes: 0 }).map((c) => c.content)).toEqual(['x', 'y']);
  });
});

describe('chunkMarkdown: splitting long sections', () => {
  const paragraph = (n: number) => `Paragraph ${n} `.padEnd(120, 'x');

  it('splits at paragraph boundaries with greedy packing; pieces keep the heading', () => {
    const paragraphs = Array.from({ length: 10 }, (_, i) => paragraph(i));
    const body = `# T\n## Long\n${paragraphs.join('\n\n')}\n`;
    const chunks = chunk(body, { maxChunkBytes: 300, minChunkBytes: 0 });
    const long = chunks.filter((c) => c.heading === 'Long');
    // 120 + 2 + 120 = 242 fits, a third paragraph would not.
    expect(long).toHaveLength(5);
    for (const c of long) {
      expect(Buffer.byteLength(c.content)).toBeLessThanOrEqual(300);
      expect(c.breadcrumb).toBe('Doc > T > Long');
      expect(c.level).toBe(2);
    }
    expect(long.map((c) => c.content).join('\n\n')).toBe(paragraphs.join('\n\n'));
  });

  it('splits a single overlong paragraph at lines, then an overlong line at code points', () => {
    const lines = Array.from({ length: 8 }, (_, i) => `line ${i} `.padEnd(100, 'y'));
    const longLine = '日本語のテキスト'.repeat(40); // 960 bytes
    const body = `## A\n${lines.join('\n')}\n${longLine}\n`;
    const chunks = chunk(body, { maxChunkBytes: 256, minChunkBytes: 0 });
    for (const c of chunks) expect(Buffer.byteLength(c.content)).toBeLessThanOrEqual(256);
    // Lines pack with their newlines; the long line is cut into consecutive pieces.
    expect(chunks[0]!.content).toBe(lines.slice(0, 2).join('\n'));
    expect(chunks.map((c) => c.content.replaceAll('\n', '')).join('')).toBe(lines.join('') + longLine);
    // 960 bytes of 3-byte characters: cuts at 255 bytes (85 characters) give 4 pieces.
    expect(chunks.filter((c) => /^[^\x00-\x7f]+$/.test(c.content)).map((c) => c.content.length)).toEqual([
      85, 85, 85, 65,
    ]);
    expect(chunks.every((c) => !c.content.includes('\uFFFD'))).toBe(true);
  });

  it('never splits a fenced block smaller than 4× maxChunkBytes, even across blank lines', () => {
    const code = Array.from({ length: 12 }, (_, i) => `print(${i}) # padding to make the line longer`).join(
      '\n\n',
    );
    const body = `## A\n${FILLER}\n\n\`\`\`python\n${code}\n\`\`\`\n\n${FILLER}\n`;
    const chunks = chunk(body, { maxChunkBytes: 256 });
    const fenced = chunks.filter((c) => c.content.includes('```'));
    expect(fenced).toHaveLength(1);
    expect(fenced[0]!.content).toBe(`\`\`\`python\n${code}\n\`\`\``);
    expect(Buffer.byteLength(fenced[0]!.content)).toBeGreaterThan(256);
  });

  it('splits a fence larger than 4× maxChunkBytes at its lines', () => {
    const code = Array.from({ length: 40 }, (_, i) => `echo ${i} ${'z'.repeat(40)}`).join('\n');
    const chunks = chunk(`## A\n\`\`\`\n${code}\n\`\`\`\n`, { maxChunkBytes: 256 });
    expect(chunks.length).toBeGreaterThan(4);
    for (const c of chunks) expect(Buffer.byteLength(c.content)).toBeLessThanOrEqual(256);
    expect(chunks.map((c) => c.content).join('\n')).toBe(`\`\`\`\n${code}\n\`\`\``);
  });

  it('gives pieces contiguous byte ranges, the first one covering the heading line', () => {
    const body = `## Long\n${Array.from({ length: 6 }, (_, i) => paragraph(i)).join('\n\n')}\n`;
    const chunks = chunk(body, { maxChunkBytes: 256 });
    expect(chunks[0]!.byteStart).toBe(0);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.byteStart).toBe(chunks[i - 1]!.byteEnd);
    expect(chunks[chunks.length - 1]!.byteEnd).toBe(Buffer.byteLength(body));
    for (const c of chunks) expect(sliceBytes(body, c)).toContain(c.content);
  });
});

describe('chunkMarkdown: breadcrumbs', () => {
  it('joins title and ancestor headings, popping siblings and skipping empties and repeats', () => {
    const body = [
      '# Guide',
      FILLER,
      '## Install',
      FILLER,
      '### Linux',
      FILLER,
      '## Usage',
      FILLER,
      '### Usage',
      FILLER,
      '#',
      FILLER,
    ].join('\n');
    expect(chunk(body, { title: 'Guide' }).map((c) => c.breadcrumb)).toEqual([
      'Guide',
      'Guide > Install',
      'Guide > Install > Linux',
      'Guide > Usage',
      'Guide > Usage',
      'Guide',
    ]);
    expect(chunk(`## A\n${FILLER}`, { title: '' })[0]!.breadcrumb).toBe('A');
  });

  it('caps breadcrumbs at 200 code points without splitting a surrogate pair', () => {
    const long = '😀'.repeat(250);
    const chunks = chunk(`## ${long}\n${FILLER}\n`, { title: 'T' });
    const breadcrumb = chunks[0]!.breadcrumb;
    expect([...breadcrumb]).toHaveLength(200);
    expect(breadcrumb.startsWith('T > 😀')).toBe(true);
    expect(breadcrumb.endsWith('😀')).toBe(true);
  });
});

describe('chunkMarkdown: excludeHeadings', () => {
  it('drops a matching section with its sub-sections until the next same-or-higher heading', () => {
    const body = [
      '## Keep',
      FILLER,
      '## Private notes',
      FILLER,
      '### Child',
      FILLER,
      '## After',
      FILLER,
      '# Top',
      FILLER,
    ].join('\n');
    const chunks = chunk(body, { excludeHeadings: ['Private', ''] });
    expect(chunks.map((c) => [c.index, c.heading])).toEqual([
      [0, 'Keep'],
      [1, 'After'],
      [2, 'Top'],
    ]);
    expect(chunks.some((c) => c.content.includes('Child'))).toBe(false);
    expect(sliceBytes(body, chunks[0]!)).toBe(`## Keep\n${FILLER}\n`);
    expect(sliceBytes(body, chunks[1]!).startsWith('## After\n')).toBe(true);
  });

  it('ends the exclusion at a higher-level heading and matches substrings case-sensitively', () => {
    const body = `### Secret\n${FILLER}\n## Open\n${FILLER}\n## secret lower\n${FILLER}\n`;
    expect(chunk(body, { excludeHeadings: ['Secret'] }).map((c) => c.heading)).toEqual([
      'Open',
      'secret lower',
    ]);
  });
});

describe('chunkMarkdown: byte offsets', () => {
  it('covers each section including its heading line, relative to the file via baseByteOffset', () => {
    const prefix = '---\ntitle: 日本\n---\n';
    const body = `前文です。${FILLER}\n## 見出し一\n${FILLER}日本語の本文。\n## 見出し二 ##\n${FILLER}\n`;
    const file = prefix + body;
    const base = Buffer.byteLength(prefix);
    const chunks = chunk(body, { baseByteOffset: base });
    expect(chunks.map((c) => c.heading)).toEqual([null, '見出し一', '見出し二']);
    const bytes = Buffer.from(file);
    expect(bytes.subarray(chunks[1]!.byteStart, chunks[1]!.byteEnd).toString()).toBe(
      `## 見出し一\n${FILLER}日本語の本文。\n`,
    );
    expect(
      bytes.subarray(chunks[2]!.byteStart, chunks[2]!.byteEnd).toString().startsWith('## 見出し二 ##\n'),
    ).toBe(true);
    expect(chunks[0]!.byteStart).toBe(base);
    expect(chunks[2]!.byteEnd).toBe(bytes.length);
    expect(chunks[1]!.tokenCount).toBe(Math.ceil(Buffer.byteLength(chunks[1]!.content) / 4));
  });

  it('counts CRLF terminators in offsets', () => {
    const body = `## A\r\n${FILLER}\r\n## B\r\n${FILLER}\r\n`;
    const chunks = chunk(body);
    expect(sliceBytes(body, chunks[1]!)).toBe(`## B\r\n${FILLER}\r\n`);
  });
});

describe('chunkMarkdown: properties', () => {
  const line = fc.oneof(
    fc.constantFrom(
      '',
      '',
      '# H1',
      '## H2',
      '### H3',
      '#### H4',
      '```',
      '~~~',
      '````',
      '  ```js',
      '## 日本語',
      '- item',
    ),
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.string({
      unit: fc.constantFrom('a', 'あ', '😀', ' ', 'x', '#', '`', '\r', '\uD83D', '\uDE00'),
      maxLength: 400,
    }),
  );
  const markdown = fc.tuple(fc.array(line, { maxLength: 60 }), fc.constantFrom('\n', '\r\n'));

  it('keeps ranges inside the file, increasing, non-overlapping, tiling, and sizes bounded unless fenced', () => {
    fc.assert(
      fc.property(
        markdown,
        fc.integer({ min: 0, max: 200 }),
        fc.constantFrom(256, 300, 1000),
        fc.integer({ min: 1, max: 6 }),
        ([lines, eol], minChunkBytes, maxChunkBytes, maxHeadingLevel) => {
          const body = lines.join(eol);
          const size = Buffer.byteLength(body);
          const chunks = chunkMarkdown(body, { title: 't', minChunkBytes, maxChunkBytes, maxHeadingLevel });
          let previousEnd = 0;
          chunks.forEach((c, i) => {
            expect(c.index).toBe(i);
            expect(c.byteStart).toBeGreaterThanOrEqual(previousEnd);
            expect(c.byteEnd).toBeGreaterThanOrEqual(c.byteStart);
            expect(c.byteEnd).toBeLessThanOrEqual(size);
            previousEnd = c.byteEnd;
            const fenced = /^ {0,3}(```|~~~)/m.test(c.content);
            if (!fenced) expect(Buffer.byteLength(c.content)).toBeLessThanOrEqual(maxChunkBytes);
            else expect(Buffer.byteLength(c.content)).toBeLessThanOrEqual(maxChunkBytes * 4);
            expect(c.breadcrumb.length).toBeLessThanOrEqual(400);
            expect(c.qualityScore).toBeGreaterThanOrEqual(0);
            expect(c.qualityScore).toBeLessThanOrEqual(1);
            // Without excluded headings the chunks tile the file from the first kept line to the end.
            if (i > 0) expect(c.byteStart).toBe(chunks[i - 1]!.byteEnd);
          });
          if (chunks.length > 0) expect(chunks[chunks.length - 1]!.byteEnd).toBe(size);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('with excluded headings, keeps ranges ordered and never emits an excluded heading', () => {
    fc.assert(
      fc.property(markdown, fc.constantFrom(['H2'], ['日本'], ['H']), ([lines, eol], excludeHeadings) => {
        const body = lines.join(eol);
        const chunks = chunkMarkdown(body, { ...BASE, maxChunkBytes: 256, excludeHeadings });
        let previousEnd = 0;
        for (const c of chunks) {
          expect(c.byteStart).toBeGreaterThanOrEqual(previousEnd);
          expect(c.byteEnd).toBeLessThanOrEqual(Buffer.byteLength(body));
          previousEnd = c.byteEnd;
          expect(excludeHeadings.some((needle) => c.heading?.includes(needle))).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });
});
