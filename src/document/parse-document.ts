// One file's text → ParsedDocument: frontmatter, title, category/topic from the path, chunks and note links.
// Also the chunk signature the indexer compares to recognise a frontmatter-only edit.

import type { ChunkDraft, ParsedDocument } from '../types.js';
import { chunkMarkdown } from './chunk-markdown.js';
import { chunkPlainText } from './chunk-plain-text.js';
import type { DocumentFormat } from './document-formats.js';
import { emptyMetadata, splitFrontmatter } from './frontmatter.js';
import { readAtxHeading } from './markdown-blocks.js';
import { extractNoteLinks } from './note-links.js';

/** Chunking settings (the app passes `DEFAULTS.chunking` merged with config, plus `exclude_headings`). */
export interface ParseOptions {
  /** 1–6; default 3. */
  maxHeadingLevel: number;
  /** 256 – 1 MiB; default 4000. */
  maxChunkBytes: number;
  /** 0 – 4096; default 50. */
  minChunkBytes: number;
  /** Heading substrings whose sections are dropped; default none. */
  excludeHeadings: readonly string[];
}

export {
  type DocumentFormat,
  formatCarriesFrontmatter,
  formatOfPath,
} from './document-formats.js';

export interface ParseDocumentInput {
  /** KB-relative path with `/` separators. */
  path: string;
  /** The file's decoded text; keep a BOM if the file has one so byte offsets match the file. */
  text: string;
  format: DocumentFormat;
  options: ParseOptions;
}

export function parseDocument(input: ParseDocumentInput): ParsedDocument {
  const { path, text, format, options } = input;
  const segments = path.split('/').filter((segment) => segment !== '');
  const category = segments.length >= 2 ? segments[0]! : null;
  const pathTopic = segments.length >= 3 ? segments[1]! : null;
  // Plain text, and source code in a language without a grammar (or read outside the extraction process).
  if (format !== 'md') {
    const title = titleFromFileName(path);
    const bomLength = text.startsWith('\uFEFF') ? 1 : 0;
    const chunks = chunkPlainText(text.slice(bomLength), {
      title,
      maxChunkBytes: options.maxChunkBytes,
      baseByteOffset: bomLength * 3,
    });
    return {
      path,
      title,
      metadata: emptyMetadata(),
      category,
      topic: pathTopic,
      frontmatterError: null,
      chunks,
      links: [], // plain text is read as it is: brackets in it are not links
    };
  }
  const frontmatter = splitFrontmatter(text);
  const title = frontmatter.metadata.title ?? openingHeading(frontmatter.body) ?? titleFromFileName(path);
  const chunks = chunkMarkdown(frontmatter.body, {
    title,
    maxHeadingLevel: options.maxHeadingLevel,
    maxChunkBytes: options.maxChunkBytes,
    minChunkBytes: options.minChunkBytes,
    excludeHeadings: options.excludeHeadings,
    baseByteOffset: frontmatter.bodyByteOffset,
  });
  return {
    path,
    title,
    metadata: frontmatter.metadata,
    category,
    topic: frontmatter.metadata.topic ?? pathTopic,
    frontmatterError: frontmatter.error,
    chunks,
    // Links come from the whole body, excluded headings included: they say what the note relates to.
    links: extractNoteLinks(path, frontmatter.body),
  };
}

/**
 * The text of the ATX heading a Markdown body opens with (blank lines before it allowed), whatever its level: an
 * mdBook chapter opens at `##`. Null when the body opens with anything else, so a heading further down, which
 * names a section, never names the note.
 */
export function openingHeading(body: string): string | null {
  let start = body.startsWith('\uFEFF') ? 1 : 0;
  while (start < body.length) {
    const newline = body.indexOf('\n', start);
    const end = newline === -1 ? body.length : newline;
    const lineEnd = end > start && body.charCodeAt(end - 1) === 13 ? end - 1 : end;
    if (body.slice(start, lineEnd).trim() !== '') {
      const heading = readAtxHeading(body, start, lineEnd);
      return heading && heading.text !== '' ? heading.text : null;
    }
    start = end + 1;
  }
  return null;
}

/** `notes/my-first_note.md` → `my first note`: the stem, `-`/`_` as spaces, whitespace collapsed. */
export function titleFromFileName(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const title = stem.replace(/[-_]/g, ' ').replace(/\s+/g, ' ').trim();
  return title === '' ? name : title;
}

export interface ChunkSignatureOptions {
  /**
   * Include breadcrumbs (default true). They contain the title, so a frontmatter `title` edit changes the
   * signature; pass false when breadcrumbs do not reach the embedding input (contextual mode off).
   */
  includeBreadcrumb?: boolean;
}

/**
 * A stable string over what embeddings depend on — each chunk's heading, level, content (and breadcrumb) —
 * but not byte offsets, which move whenever the frontmatter changes length. Equal signatures before and
 * after an edit mean the edit touched only frontmatter: update metadata and offsets, keep the vectors.
 * The caller hashes it.
 */
export function deriveChunkSignature(
  chunks: readonly ChunkDraft[],
  options: ChunkSignatureOptions = {},
): string {
  const includeBreadcrumb = options.includeBreadcrumb ?? true;
  return JSON.stringify(
    chunks.map((chunk) =>
      includeBreadcrumb
        ? [chunk.heading, chunk.level, chunk.breadcrumb, chunk.content]
        : [chunk.heading, chunk.level, chunk.content],
    ),
  );
}
