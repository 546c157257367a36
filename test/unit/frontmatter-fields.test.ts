import { describe, expect, it } from 'vitest';
import { splitFrontmatter } from '../../src/document/frontmatter.js';
import { readFrontmatterFields } from '../../src/document/frontmatter-fields.js';

function fieldsOf(text: string) {
  const read = readFrontmatterFields(text);
  if (!read.ok) throw new Error(read.error);
  return read.fields;
}

describe('readFrontmatterFields', () => {
  it('gives each key its file line (the opening fence is line 1) and each list item its own', () => {
    const text = '---\ntitle: Guide\n\ntags:\n  - a\n  - b\ndepth: 3\n---\n# Body\n';
    expect(fieldsOf(text)).toEqual([
      { key: 'title', value: 'Guide', line: 2, itemLines: null },
      { key: 'tags', value: ['a', 'b'], line: 4, itemLines: [5, 6] },
      { key: 'depth', value: 3, line: 7, itemLines: null },
    ]);
  });

  it('keeps the same lines with a BOM and CRLF line ends', () => {
    const text = '\uFEFF---\r\ntitle: 日本語\r\ntags: [x, y]\r\n---\r\nbody\r\n';
    expect(fieldsOf(text)).toEqual([
      { key: 'title', value: '日本語', line: 2, itemLines: null },
      { key: 'tags', value: ['x', 'y'], line: 3, itemLines: [3, 3] },
    ]);
  });

  it('keeps YAML types as the core schema reads them: dates stay text, numbers and booleans do not', () => {
    const [date, n, flag, empty] = fieldsOf('---\ndate: 2024-01-05\nn: 1.5\nflag: true\nempty:\n---\n');
    expect([date!.value, n!.value, flag!.value, empty!.value]).toEqual(['2024-01-05', 1.5, true, null]);
  });

  it('finds no block where the indexer finds none (no opening fence, or never closed)', () => {
    for (const text of ['# Title\n---\ntitle: x\n---\n', '---\ntitle: x\n', '']) {
      expect(readFrontmatterFields(text)).toEqual({ ok: true, hasBlock: false, fields: [] });
      expect(splitFrontmatter(text).metadata.title).toBeNull();
    }
    expect(fieldsOf('---\ntitle: x\n...\nbody\n')).toHaveLength(1);
  });

  it('leaves out `<<` and `__proto__`, as the indexer does', () => {
    expect(fieldsOf('---\n__proto__: x\n"<<": y\nok: 1\n---\n').map((f) => f.key)).toEqual(['ok']);
  });

  it('reports broken YAML, a duplicate key and a non-mapping with the line to look at', () => {
    const broken = readFrontmatterFields('---\ntitle: ok\ntags: [a\n---\n');
    expect(broken).toMatchObject({ ok: false, line: 4 });
    const duplicate = readFrontmatterFields('---\ntitle: a\ntitle: b\n---\n');
    expect(duplicate).toMatchObject({ ok: false, line: 3 });
    expect(!duplicate.ok && duplicate.error).toContain('invalid YAML frontmatter at line 3');
    expect(readFrontmatterFields('---\n- a\n- b\n---\n')).toEqual({
      ok: false,
      error: 'frontmatter is not a mapping of keys to values',
      line: 1,
    });
  });

  it('gives the same verdict as the indexer on the same text', () => {
    for (const text of ['---\ntitle: [a\n---\n', '---\na: &x [*x]\n---\n', '---\ntitle: fine\n---\n']) {
      const read = readFrontmatterFields(text);
      expect(read.ok ? null : read.error).toBe(splitFrontmatter(text).error);
    }
  });
});
