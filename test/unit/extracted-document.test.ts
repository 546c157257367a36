// From an extraction to the text get_document serves and the chunks the index stores: heading lines, byte
// offsets into that text, splitting long sections, excluded headings, verbatim (source) tiling, metadata.
import { describe, expect, it } from 'vitest';
import {
  type Extraction,
  parseExtraction,
  renderExtractedText,
} from '../../src/document/extracted-document.js';

const base: Extraction = {
  title: null,
  date: null,
  tags: [],
  sections: [],
  verbatim: false,
  truncated: false,
};
const section = (heading: string | null, text: string, ancestors: string[] = [], level = 2) => ({
  heading,
  level: heading === null ? null : level,
  ancestors,
  text,
});

function parse(extraction: Extraction, options: { maxChunkBytes?: number; excludeHeadings?: string[] } = {}) {
  return parseExtraction({
    path: 'docs/q/report.pdf',
    extraction,
    fallbackTitle: 'report',
    maxChunkBytes: options.maxChunkBytes ?? 4000,
    excludeHeadings: options.excludeHeadings ?? [],
  });
}

describe('extracted documents', () => {
  it('renders each section under a # line and points every chunk at its own bytes, non-ASCII included', () => {
    const extraction = {
      ...base,
      sections: [section('p. 1', '東京の売上は伸びた。'), section('p. 2', 'Costs were flat.')],
    };
    const text = renderExtractedText(extraction);
    expect(text).toBe('## p. 1\n\n東京の売上は伸びた。\n\n## p. 2\n\nCosts were flat.\n\n');
    const doc = parse(extraction);
    const bytes = Buffer.from(text);
    expect(doc.chunks.map((c) => [c.heading, c.level, c.content])).toEqual([
      ['p. 1', 2, '東京の売上は伸びた。'],
      ['p. 2', 2, 'Costs were flat.'],
    ]);
    expect(bytes.subarray(doc.chunks[0]!.byteStart, doc.chunks[0]!.byteEnd).toString()).toBe(
      '## p. 1\n\n東京の売上は伸びた。\n\n',
    );
    expect(doc.chunks[1]!.byteEnd).toBe(bytes.length);
  });

  it('splits a long section at paragraphs, every piece keeping the heading and breadcrumb', () => {
    const paragraph = (n: number) => `${'word '.repeat(60).trim()} ${n}.`;
    const text = [1, 2, 3, 4].map(paragraph).join('\n\n');
    const doc = parse(
      { ...base, title: 'Handbook', sections: [section('Setup', text, ['Onboarding'], 2)] },
      {
        maxChunkBytes: 700,
      },
    );
    expect(doc.chunks.length).toBeGreaterThan(1);
    for (const chunk of doc.chunks) {
      expect(chunk).toMatchObject({
        heading: 'Setup',
        level: 2,
        breadcrumb: 'Handbook > Onboarding > Setup',
      });
      expect(Buffer.byteLength(chunk.content)).toBeLessThanOrEqual(700);
    }
    expect(doc.title).toBe('Handbook');
  });

  it('drops sections whose heading or an enclosing heading is excluded', () => {
    const doc = parse(
      {
        ...base,
        sections: [
          section('Intro', 'kept text'),
          section('Internal notes', 'dropped'),
          section('Detail', 'also dropped', ['Internal notes'], 3),
        ],
      },
      { excludeHeadings: ['Internal'] },
    );
    expect(doc.chunks.map((c) => c.content)).toEqual(['kept text']);
  });

  it('a verbatim extraction is the source itself; offsets are into the file', () => {
    const source = 'import os\n\ndef f():\n    return 1\n';
    const extraction = {
      ...base,
      verbatim: true,
      sections: [section(null, 'import os\n\n'), section('function f', 'def f():\n    return 1\n')],
    };
    expect(renderExtractedText(extraction)).toBe(source);
    const chunk = parse(extraction).chunks[1]!;
    expect(Buffer.from(source).subarray(chunk.byteStart, chunk.byteEnd).toString()).toBe(
      'def f():\n    return 1\n',
    );
  });

  it('takes the title and date from the extraction, else the file name; category and topic from the path', () => {
    const doc = parse({
      ...base,
      date: '2024-03-01',
      tags: ['finance'],
      truncated: true,
      sections: [section('p. 1', 'x')],
    });
    expect(doc).toMatchObject({ title: 'report', category: 'docs', topic: 'q', frontmatterError: null });
    expect(doc.metadata).toMatchObject({
      title: null,
      date: '2024-03-01',
      tags: ['finance', 'extract:truncated'],
    });
    // One short line is not a fragment here: only the placeholder penalty applies to extracted text.
    expect(doc.chunks[0]!.qualityScore).toBe(1);
  });
});
