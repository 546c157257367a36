// DOCX → sections at the document's heading paragraphs (Heading 1 up to `[chunking] max_heading_level`, and
// Title, by style name as mammoth resolves it; deeper headings are body lines, as in Markdown), paragraphs as lines, list items as `- ` / `1. ` lines indented by level, tables as rows of cells
// joined by ` | `. mammoth reads the document; groove walks mammoth's document tree rather than its HTML.
import { createRequire } from 'node:module';
import type { ExtractedSection, Extraction } from '../../document/extracted-document.js';
import { type ExtractionLimits, TextBudget } from './extract-job.js';
import { ExtractRefusal } from './extract-refusal.js';
import { openOoxml, readCoreProperties } from './ooxml-common.js';

const require = createRequire(import.meta.url);

interface DocNode {
  type: string;
  styleName?: string | null;
  styleId?: string | null;
  numbering?: { level: string | number; isOrdered: boolean } | null;
  value?: string;
  children?: DocNode[];
}

interface Mammoth {
  convertToHtml(
    input: { buffer: Buffer },
    options: { transformDocument: (document: DocNode) => DocNode },
  ): Promise<unknown>;
}

export async function extractDocx(bytes: Uint8Array, limits: ExtractionLimits): Promise<Extraction> {
  const zip = openOoxml(bytes, limits, 'word/document.xml');
  zip.verifyAll();
  const core = readCoreProperties(zip);
  const mammoth = require('mammoth') as Mammoth;
  const listed = zip.listedOnly();
  let tree: DocNode | null = null;
  try {
    await mammoth.convertToHtml(
      { buffer: Buffer.from(listed.buffer, listed.byteOffset, listed.byteLength) },
      {
        transformDocument: (document) => {
          tree = document;
          return document;
        },
      },
    );
  } catch (error) {
    throw new ExtractRefusal('corrupt', `it is not a readable Word document (${(error as Error).message})`);
  }
  if (tree === null) throw new ExtractRefusal('corrupt', 'it has no document body');
  const walker = new SectionWalker(new TextBudget(limits.maxTextChars), limits.maxHeadingLevel);
  walker.blocks((tree as DocNode).children ?? []);
  return {
    title: core.title,
    date: core.date,
    tags: core.tags,
    sections: walker.finish(),
    verbatim: false,
    truncated: walker.budget.truncated,
  };
}

/** `Heading 2` → 2, `Title` → 1, anything else → null. */
export function headingLevelOf(node: DocNode): number | null {
  const name = (node.styleName ?? node.styleId ?? '').trim();
  const match = /^heading\s*([1-6])$/i.exec(name);
  if (match) return Number(match[1]);
  return /^title$/i.test(name) ? 1 : null;
}

class SectionWalker {
  private readonly sections: ExtractedSection[] = [];
  private current: { heading: string | null; level: number | null; ancestors: string[]; lines: string[] } = {
    heading: null,
    level: null,
    ancestors: [],
    lines: [],
  };
  /** Open headings by level, for the ancestors of the next one. */
  private readonly open: { level: number; text: string }[] = [];
  private readonly listCounters = new Map<number, number>();

  constructor(
    readonly budget: TextBudget,
    private readonly maxHeadingLevel: number,
  ) {}

  blocks(nodes: readonly DocNode[]): void {
    for (const node of nodes) {
      if (this.budget.exhausted) return;
      if (node.type === 'paragraph') this.paragraph(node);
      else if (node.type === 'table') this.table(node);
      else if (node.children) this.blocks(node.children);
    }
  }

  finish(): ExtractedSection[] {
    this.flush();
    return this.sections;
  }

  private paragraph(node: DocNode): void {
    const text = inlineText(node).trim();
    const level = headingLevelOf(node);
    if (level !== null && level <= this.maxHeadingLevel && text !== '') {
      this.flush();
      while (this.open.length > 0 && this.open[this.open.length - 1]!.level >= level) this.open.pop();
      const heading = this.budget.take(text.replace(/\s+/g, ' '));
      this.current = { heading, level, ancestors: this.open.map((h) => h.text), lines: [] };
      this.open.push({ level, text: heading });
      return;
    }
    if (node.numbering) {
      const depth = Number(node.numbering.level) || 0;
      const count = (this.listCounters.get(depth) ?? 0) + 1;
      this.listCounters.set(depth, count);
      for (const deeper of [...this.listCounters.keys()])
        if (deeper > depth) this.listCounters.delete(deeper);
      const marker = node.numbering.isOrdered ? `${count}.` : '-';
      this.push(`${'  '.repeat(depth)}${marker} ${text}`);
      return;
    }
    this.listCounters.clear();
    if (text !== '') this.push(text);
  }

  private table(node: DocNode): void {
    this.listCounters.clear();
    for (const row of node.children ?? []) {
      if (row.type !== 'tableRow') continue;
      const cells = (row.children ?? []).map((cell) => inlineText(cell).replace(/\s+/g, ' ').trim());
      if (cells.some((cell) => cell !== '')) this.push(cells.join(' | '));
    }
  }

  private push(line: string): void {
    this.current.lines.push(this.budget.take(line));
  }

  private flush(): void {
    const text = this.current.lines.join('\n');
    if (this.current.heading !== null || text.trim() !== '') {
      this.sections.push({
        heading: this.current.heading,
        level: this.current.level,
        ancestors: this.current.ancestors,
        text,
      });
    }
  }
}

/** The text of a paragraph or cell: runs, tabs and breaks; nested paragraphs (in a cell) on their own lines. */
function inlineText(node: DocNode): string {
  if (node.type === 'text') return node.value ?? '';
  if (node.type === 'tab') return '\t';
  if (node.type === 'break') return '\n';
  const parts = (node.children ?? []).map(inlineText);
  return node.type === 'tableCell' ? parts.join('\n') : parts.join('');
}
