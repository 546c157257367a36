// What an extractor (PDF, DOCX, XLSX, PPTX, source code) hands back, and how it becomes the document's text and
// chunks. The rendered text is what get_document serves and what chunk byte offsets (match spans) point into.

import { countUtf8Bytes } from '../core/utf8-bytes.js';
import type { ChunkDraft, ParsedDocument } from '../types.js';
import { buildBreadcrumb } from './breadcrumb.js';
import { chunkPlainText } from './chunk-plain-text.js';
import { emptyMetadata } from './frontmatter.js';
import { scoreExtractedChunkQuality } from './quality-score.js';

/** One structural unit of an extracted document: a page, a sheet, a slide, a Word section, a definition. */
export interface ExtractedSection {
  /** `p. 3`, the sheet name, the slide title, the heading paragraph, `function parse`; null before any heading. */
  heading: string | null;
  /** 1–6, or null with no heading. */
  level: number | null;
  /** Enclosing headings, outermost first (a Word heading's parents, a method's class). */
  ancestors: string[];
  /** The section's text (for verbatim extractions: the exact source slice, heading line included). */
  text: string;
}

/** The result of one extraction, as plain data (it crosses the thread boundary). */
export interface Extraction {
  /** From the document's own metadata (PDF info, docProps/core.xml); null: openingHeading, else the file name. */
  title: string | null;
  /** The heading the document opens with (a deck's first slide title); the title when the metadata has none. */
  openingHeading?: string | null;
  date: string | null;
  tags: string[];
  sections: ExtractedSection[];
  /**
   * The sections tile the file's own text (source code): the rendered text is the file verbatim. Otherwise the
   * rendered text is built from the sections, each headed by a `#` line.
   */
  verbatim: boolean;
  /** Some text was left out at a cap (pages, sheets, cells, slides, characters); the document is tagged. */
  truncated: boolean;
}

export interface ExtractedChunkOptions {
  maxChunkBytes: number;
  /** Sections whose heading or an enclosing heading contains one of these are dropped. */
  excludeHeadings: readonly string[];
}

interface RenderedSection {
  section: ExtractedSection;
  /** UTF-8 byte range of the whole section (heading line included) in the rendered text. */
  byteStart: number;
  byteEnd: number;
  /** Where the section's own text starts, and the text itself. */
  bodyByteStart: number;
}

/** The document text an extraction stands for: the source itself, or the sections under `#` heading lines. */
export function renderExtractedText(extraction: Extraction): string {
  return renderSections(extraction).text;
}

function renderSections(extraction: Extraction): { text: string; sections: RenderedSection[] } {
  const parts: string[] = [];
  const sections: RenderedSection[] = [];
  let offset = 0;
  for (const section of extraction.sections) {
    const head =
      !extraction.verbatim && section.heading !== null
        ? `${'#'.repeat(section.level ?? 2)} ${section.heading}\n\n`
        : '';
    const tail = extraction.verbatim ? '' : '\n\n';
    const body = extraction.verbatim ? section.text : section.text.trim();
    const headBytes = countUtf8Bytes(head);
    const bodyBytes = countUtf8Bytes(body);
    const tailBytes = countUtf8Bytes(tail);
    sections.push({
      section: { ...section, text: body },
      byteStart: offset,
      bodyByteStart: offset + headBytes,
      byteEnd: offset + headBytes + bodyBytes + tailBytes,
    });
    parts.push(head, body, tail);
    offset += headBytes + bodyBytes + tailBytes;
  }
  return { text: parts.join(''), sections };
}

function isExcluded(section: ExtractedSection, excluded: readonly string[]): boolean {
  if (excluded.length === 0) return false;
  const names = [...section.ancestors, section.heading ?? ''];
  return names.some((name) => excluded.some((word) => name.includes(word)));
}

/**
 * Chunks of an extraction: each section on its own (a page, sheet or slide is never merged with the next), split
 * at paragraphs and lines when over maxChunkBytes, every piece keeping the section's heading and breadcrumb.
 */
export function chunkExtraction(
  extraction: Extraction,
  title: string,
  options: ExtractedChunkOptions,
): ChunkDraft[] {
  const chunks: ChunkDraft[] = [];
  for (const rendered of renderSections(extraction).sections) {
    const { section } = rendered;
    if (isExcluded(section, options.excludeHeadings)) continue;
    const breadcrumb = buildBreadcrumb([title, ...section.ancestors, section.heading]);
    const pieces = chunkPlainText(section.text, {
      title: breadcrumb,
      maxChunkBytes: options.maxChunkBytes,
      baseByteOffset: rendered.bodyByteStart,
    });
    pieces.forEach((piece, i) => {
      chunks.push({
        ...piece,
        index: chunks.length,
        heading: section.heading,
        level: section.heading === null ? null : (section.level ?? 2),
        breadcrumb,
        byteStart: i === 0 ? rendered.byteStart : piece.byteStart,
        byteEnd: i === pieces.length - 1 ? rendered.byteEnd : piece.byteEnd,
        qualityScore: scoreExtractedChunkQuality(piece.content),
      });
    });
  }
  return chunks;
}

/** Titles presentation writers put in the metadata of a deck nobody named; they say nothing about it. */
const PLACEHOLDER_TITLES = new Set(['powerpoint presentation', 'pptxgenjs presentation']);

/** The metadata title, unless it is empty or a writer's placeholder. */
function metadataTitle(extraction: Extraction): string | null {
  const title = extraction.title?.trim() ?? '';
  return title === '' || PLACEHOLDER_TITLES.has(title.toLowerCase()) ? null : title;
}

/**
 * An extraction as a ParsedDocument: its title from the metadata, else the heading it opens with, else the file
 * name; its date and tags, its chunks.
 */
export function parseExtraction(
  input: { path: string; extraction: Extraction; fallbackTitle: string } & ExtractedChunkOptions,
): ParsedDocument {
  const { path, extraction } = input;
  const segments = path.split('/').filter((segment) => segment !== '');
  const title = metadataTitle(extraction) ?? (extraction.openingHeading?.trim() || input.fallbackTitle);
  const metadata = emptyMetadata();
  metadata.title = extraction.title?.trim() || null;
  metadata.date = extraction.date;
  metadata.tags = [...extraction.tags, ...(extraction.truncated ? ['extract:truncated'] : [])];
  // Only Markdown notes carry note links; extracted text (PDF, Office, code) has none.
  return {
    path,
    title,
    links: [],
    metadata,
    category: segments.length >= 2 ? segments[0]! : null,
    topic: segments.length >= 3 ? segments[1]! : null,
    frontmatterError: null,
    chunks: chunkExtraction(extraction, title, input),
  };
}
