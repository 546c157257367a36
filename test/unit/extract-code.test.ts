// Source code chunked by definitions with tree-sitter: headings, enclosing names, comments kept with their
// definition, the text tiled exactly, oversized definitions split into their members, and the size bound.
import { describe, expect, it } from 'vitest';
import { parseExtraction, renderExtractedText } from '../../src/document/extracted-document.js';
import { extractCode, MAX_PARSE_CHARS } from '../../src/fs/extract/extract-code.js';
import type { ExtractionLimits } from '../../src/fs/extract/extract-job.js';

const limits = { chunkBytes: 4000 } as ExtractionLimits;

async function sections(text: string, grammar: string, chunkBytes = 4000) {
  const extraction = await extractCode(text, grammar, grammar, { ...limits, chunkBytes });
  expect(renderExtractedText(extraction)).toBe(text);
  return extraction.sections.filter((s) => s.text.trim() !== '');
}

describe('code chunking by definitions', () => {
  it('TypeScript: exported functions, classes, interfaces and arrow constants, with their doc comments', async () => {
    const text = [
      "import { x } from './x.js';",
      '',
      '/** Adds two numbers. */',
      'export function add(a: number, b: number): number {',
      '  return a + b;',
      '}',
      '',
      'export interface Shape { area(): number }',
      '',
      'const double = (n: number) => n * 2;',
      '',
      '// Straight lines only.',
      'class Square {',
      '  side = 1;',
      '  area() { return this.side ** 2; }',
      '}',
      '',
    ].join('\n');
    const found = await sections(text, 'typescript');
    expect(found.map((s) => s.heading)).toEqual([
      null,
      'function add',
      'interface Shape',
      'function double',
      'class Square',
    ]);
    expect(found[1]!.text.startsWith('/** Adds two numbers. */\nexport function add')).toBe(true);
    expect(found[4]!.text.startsWith('// Straight lines only.\nclass Square')).toBe(true);
  });

  it('splits a definition over the bound into its members, each under the enclosing name', async () => {
    const method = (name: string) => `  ${name}() {\n${'    this.total += 1;\n'.repeat(8)}  }\n`;
    const text = `class Ledger {\n  total = 0;\n${method('credit')}${method('debit')}}\n`;
    const found = await sections(text, 'typescript', 300);
    expect(found.map((s) => [s.heading, s.ancestors])).toEqual([
      ['class Ledger', []],
      ['method credit', ['class Ledger']],
      ['method debit', ['class Ledger']],
      ['class Ledger', []],
    ]);
    const doc = parseExtraction({
      path: 'src/ledger.ts',
      extraction: await extractCode(text, 'typescript', 'typescript', { ...limits, chunkBytes: 300 }),
      fallbackTitle: 'ledger',
      maxChunkBytes: 300,
      excludeHeadings: [],
    });
    const credit = doc.chunks.find((c) => c.heading === 'method credit')!;
    expect(credit.breadcrumb).toBe('ledger > class Ledger > method credit');
    expect(credit.level).toBe(3);
    for (const chunk of doc.chunks) expect(Buffer.byteLength(chunk.content)).toBeLessThanOrEqual(300);
    // Offsets are into the file itself: get_document serves the source verbatim.
    const bytes = Buffer.from(text);
    expect(bytes.subarray(credit.byteStart, credit.byteEnd).toString()).toContain(credit.content);
  });

  it('Rust, Go and Python: their own definition kinds and names', async () => {
    const rust = await sections(
      '/// A point.\nstruct Point { x: i32 }\n\nimpl Display for Point {\n    fn fmt(&self) {}\n}\n\nfn main() {}\n',
      'rust',
    );
    expect(rust.map((s) => s.heading)).toEqual(['struct Point', 'impl Display for Point', 'function main']);
    expect(rust[0]!.text.startsWith('/// A point.')).toBe(true);
    const go = await sections(
      'package main\n\ntype Server struct{}\n\n// Start runs it.\nfunc (s *Server) Start() {}\n\nfunc main() {}\n',
      'go',
    );
    expect(go.map((s) => s.heading)).toEqual([null, 'type Server', 'method Start', 'function main']);
    const python = await sections('@cache\ndef fetch(url):\n    return url\n', 'python');
    expect(python.map((s) => s.heading)).toEqual(['function fetch']);
    expect(python[0]!.text.startsWith('@cache')).toBe(true);
  });

  it('keeps non-ASCII text exact and tags a file with syntax errors as degraded', async () => {
    const text = '// 日本語のコメント\nfunction greet() { return "こんにちは"; }\nfunction broken( {\n';
    const extraction = await extractCode(text, 'javascript', 'javascript', limits);
    expect(renderExtractedText(extraction)).toBe(text);
    expect(extraction.tags).toEqual(['code', 'lang:javascript', 'parse:degraded']);
    expect(extraction.sections.find((s) => s.heading === 'function greet')!.text).toContain(
      '日本語のコメント',
    );
  });

  it('chunks a file with more than 512 definitions as plain text, and tags nesting past 64 levels', async () => {
    const many = Array.from({ length: 513 }, (_, i) => `function f${i}() {}\n`).join('');
    const wide = await extractCode(many, 'javascript', 'javascript', limits);
    expect(wide.tags).toContain('parse:too-many-chunks');
    expect(wide.sections).toEqual([{ heading: null, level: null, ancestors: [], text: many }]);
    const deep = `const x = ${'['.repeat(80)}${']'.repeat(80)};\nfunction after() {}\n`;
    const nested = await extractCode(deep, 'javascript', 'javascript', limits);
    expect(nested.tags).toContain('parse:too-deep');
    expect(renderExtractedText(nested)).toBe(deep);
    expect(nested.sections.map((s) => s.heading)).toContain('function after');
  });

  it('chunks a file over 1 MiB as plain text without parsing it', async () => {
    const line = 'a=b+c*d;'.repeat(MAX_PARSE_CHARS / 8 + 1);
    const big = await extractCode(`function first() {}\n${line}\n`, 'javascript', 'javascript', limits);
    expect(big.tags).toEqual(['code', 'lang:javascript', 'parse:too-large']);
    expect(big.sections).toHaveLength(1);
    const under = await extractCode('function first() {}\n', 'javascript', 'javascript', limits);
    expect(under.tags).not.toContain('parse:too-large');
  });
});
