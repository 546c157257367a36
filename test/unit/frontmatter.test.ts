import { describe, expect, it } from 'vitest';
import { splitFrontmatter } from '../../src/document/frontmatter.js';

function bytesBefore(text: string, body: string): number {
  // The body is a suffix of the text (BOM excluded), so its offset is the text's size minus the body's.
  return Buffer.byteLength(text) - Buffer.byteLength(body);
}

describe('splitFrontmatter', () => {
  it('parses title, date, topic, tags and keeps other keys in extra', () => {
    const text =
      '---\ntitle: Guide\ndate: 2024-01-05\ntopic: setup\ntags: [a, b]\nauthor: Ann\ndraft: true\n---\n# Body\n';
    const result = splitFrontmatter(text);
    expect(result.error).toBeNull();
    expect(result.metadata).toEqual({
      title: 'Guide',
      date: '2024-01-05',
      topic: 'setup',
      tags: ['a', 'b'],
      extra: { author: 'Ann', draft: true },
    });
    expect(result.body).toBe('# Body\n');
    expect(result.bodyByteOffset).toBe(bytesBefore(text, result.body));
  });

  it('coerces numbers to strings keeping their spelling', () => {
    const result = splitFrontmatter('---\ntitle: 1.10\ndate: 2024\ntopic: 0x1F\n---\n');
    expect(result.metadata.title).toBe('1.10');
    expect(result.metadata.date).toBe('2024');
    expect(result.metadata.topic).toBe('0x1F');
  });

  it('accepts tags as a comma/space separated string, trimmed, deduplicated, empties dropped', () => {
    expect(splitFrontmatter('---\ntags: "rust, cli  rust,,  yaml "\n---\n').metadata.tags).toEqual([
      'rust',
      'cli',
      'yaml',
    ]);
    expect(splitFrontmatter('---\ntags:\n  - " a "\n  - ""\n  - a\n  - 7\n---\n').metadata.tags).toEqual([
      'a',
      '7',
    ]);
  });

  it('keeps extra values JSON-safe', () => {
    const result = splitFrontmatter('---\nn: .inf\nlist: [1, x]\nnested: {k: [true, null]}\n---\n');
    expect(result.metadata.extra).toEqual({ n: 'Infinity', list: [1, 'x'], nested: { k: [true, null] } });
    expect(JSON.parse(JSON.stringify(result.metadata.extra))).toEqual(result.metadata.extra);
  });

  it('strips a BOM and accepts CRLF while keeping byte offsets of the original text', () => {
    const text = '\uFEFF---\r\ntitle: 日本語\r\n---\r\n本文\r\n';
    const result = splitFrontmatter(text);
    expect(result.error).toBeNull();
    expect(result.metadata.title).toBe('日本語');
    expect(result.body).toBe('本文\r\n');
    expect(result.bodyByteOffset).toBe(bytesBefore(text, result.body));
    expect(Buffer.from(text).subarray(result.bodyByteOffset).toString()).toBe('本文\r\n');
  });

  it('counts the BOM when there is no frontmatter', () => {
    const result = splitFrontmatter('\uFEFF# Title\n');
    expect(result.body).toBe('# Title\n');
    expect(result.bodyByteOffset).toBe(3);
  });

  it('accepts `...` as the closing fence and a fence at end of file', () => {
    expect(splitFrontmatter('---\ntitle: A\n...\nbody').body).toBe('body');
    const atEnd = splitFrontmatter('---\ntitle: A\n---');
    expect(atEnd.metadata.title).toBe('A');
    expect(atEnd.body).toBe('');
  });

  it('treats an unclosed block as ordinary text, without error', () => {
    const text = '---\ntitle: A\nno closing fence\n';
    const result = splitFrontmatter(text);
    expect(result.error).toBeNull();
    expect(result.metadata.title).toBeNull();
    expect(result.body).toBe(text);
    expect(result.bodyByteOffset).toBe(0);
  });

  it('requires the very first line to be the fence', () => {
    const text = '\n---\ntitle: A\n---\n';
    expect(splitFrontmatter(text).body).toBe(text);
    expect(splitFrontmatter('----\ntitle: A\n---\n').metadata.title).toBeNull();
  });

  it('reports broken YAML with a file line number and still returns the body', () => {
    const text = '---\ntitle: A\nlist: [1, 2\nnext: b\n---\nBody text\n';
    const result = splitFrontmatter(text);
    expect(result.error).toMatch(/^invalid YAML frontmatter at line \d+, column \d+: /);
    expect(result.metadata).toEqual({ title: null, date: null, topic: null, tags: [], extra: {} });
    expect(result.body).toBe('Body text\n');
    expect(result.bodyByteOffset).toBe(bytesBefore(text, result.body));
  });

  it('rejects duplicate keys', () => {
    const result = splitFrontmatter('---\ntitle: A\ntitle: B\n---\n');
    expect(result.error).toContain('line 3');
    expect(result.error).toContain('unique');
    expect(result.metadata.title).toBeNull();
  });

  it('rejects a root that is not a mapping', () => {
    expect(splitFrontmatter('---\n- a\n- b\n---\nx').error).toBe(
      'frontmatter is not a mapping of keys to values',
    );
    expect(splitFrontmatter('---\njust a string\n---\nx').error).not.toBeNull();
  });

  it('accepts an empty block or one with only comments', () => {
    for (const text of ['---\n---\nx', '---\n# comment\n---\nx']) {
      const result = splitFrontmatter(text);
      expect(result.error).toBeNull();
      expect(result.body).toBe('x');
    }
  });

  it('refuses alias bombs', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (const [name, previous] of [
      ['b', 'a'],
      ['c', 'b'],
      ['d', 'c'],
      ['e', 'd'],
    ]) {
      lines.push(`${name}: &${name} [${Array(10).fill(`*${previous}`).join(', ')}]`);
    }
    const result = splitFrontmatter(`---\n${lines.join('\n')}\n---\nbody`);
    expect(result.error).toMatch(/alias/i);
    expect(result.body).toBe('body');
  });

  it('survives a self-referencing alias and never resolves 1.1 tags or prototype keys', () => {
    const result = splitFrontmatter(
      '---\nloop: &x [*x, 1]\nbin: !!binary aGVsbG8=\n__proto__: {polluted: true}\n---\n',
    );
    expect(result.error).toBeNull();
    expect(result.metadata.extra.loop).toEqual([null, 1]);
    expect(result.metadata.extra.bin).toBe('aGVsbG8=');
    expect(Object.keys(result.metadata.extra)).toEqual(['loop', 'bin']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports deeply nested YAML as an error instead of throwing', () => {
    const depth = 20_000;
    const result = splitFrontmatter(`---\nx: ${'['.repeat(depth)}${']'.repeat(depth)}\n---\nbody`);
    expect(result.error).not.toBeNull();
    expect(result.body).toBe('body');
  });
});
