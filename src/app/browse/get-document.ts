// get_document: the raw text of one indexed file, addressed by its exact indexed path. Refuses what could read
// outside the KB or through a second name: absolute paths, `..`, symlinks (a symlinked parent folder too), hard
// links, and text over 1 MiB. Part of the composition root: it binds the checked-read adapter.
import fs from 'node:fs';
import path from 'node:path';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { displayPath } from '../../core/display-path.js';
import { truncateToUtf8Bytes } from '../../core/utf8-bytes.js';
import { formatOfPath, isBinaryFormat } from '../../document/document-formats.js';
import { renderExtractedText } from '../../document/extracted-document.js';
import { decodeUtf8Text, describeSkipReason, readCheckedFile } from '../../fs/checked-read.js';
import { isAddressablePath } from '../../fs/walk-kb.js';
import type { BrowseReader } from '../../store/browse-queries.js';
import { extractFile } from '../indexing/index.js';

/** Text larger than this is refused rather than cut, so a caller never mistakes a prefix for the file. */
export const GET_DOCUMENT_MAX_BYTES = 1024 * 1024;
const MAX_PATH_BYTES = 1024;

export interface DocumentPayload {
  path: string;
  title: string;
  date: string | null;
  topic: string | null;
  tags: string[];
  /**
   * The file's text as stored on disk (a UTF-8 byte-order mark removed); for PDF and Office files, the text
   * groove extracted from it (what its chunks and match spans refer to), with a `#` line per page, sheet or slide.
   */
  content: string;
  /** True when `content` is extracted text, not the file's own bytes. */
  extracted: boolean;
  /**
   * False for text files (over-cap text is refused, never cut). For extracted text: the extraction left text
   * out at a cap, or the text was cut at 1 MiB.
   */
  truncated: boolean;
}

export type GetDocumentMiss = 'invalid-path' | 'not-found' | 'refused';

export type GetDocumentResult =
  | { ok: true; document: DocumentPayload }
  | { ok: false; reason: GetDocumentMiss; message: string };

export interface GetDocumentOptions {
  kbPath: string;
  /** `[parsers] enabled`: a document whose extension left the list is no longer served. */
  enabledExtensions: readonly string[];
  browser: BrowseReader;
  /** The config the extractors use; without it, PDF and Office files are refused. */
  config?: ResolvedConfig;
}

function extensionOf(relPath: string): string {
  return path.posix.extname(relPath).slice(1).toLowerCase();
}

/** Whether `[parsers] enabled` still serves files with this path's extension. */
export function isServedExtension(relPath: string, enabledExtensions: readonly string[]): boolean {
  return enabledExtensions.map((e) => e.toLowerCase()).includes(extensionOf(relPath));
}

const EXAMPLE = 'pass the path exactly as a search result spells it, e.g. "guides/setup.md"';

/** Read one indexed document, or say why not (misses are data; nothing here throws for a bad path). */
export async function getDocument(
  requestedPath: string,
  options: GetDocumentOptions,
): Promise<GetDocumentResult> {
  const shapeProblem = describePathShapeProblem(requestedPath);
  // Every message quotes the path as displayPath prints it; the payload keeps the real one.
  const shown = displayPath(requestedPath);
  if (shapeProblem) return miss('invalid-path', `path "${shown}" ${shapeProblem}; ${EXAMPLE}`);
  const indexed = options.browser.findDocument(requestedPath);
  if (!indexed) {
    return miss(
      'not-found',
      `"${shown}" is not an indexed document (paths are case-sensitive and relative to the knowledge ` +
        'base folder); copy the "path" of a search result',
    );
  }
  if (!isServedExtension(requestedPath, options.enabledExtensions)) {
    const extension = extensionOf(requestedPath);
    return miss(
      'refused',
      `"${shown}" has extension ".${extension}", which is not in [parsers] enabled; it is not served`,
    );
  }
  const absPath = path.join(options.kbPath, ...requestedPath.split('/'));
  const linkProblem = describeLinkedAncestor(options.kbPath, requestedPath, absPath);
  if (linkProblem) return linkProblem;
  const binary = isBinaryFormat(formatOfPath(requestedPath));
  if (binary && !options.config)
    return miss('refused', `refused ${shown}: its text is extracted, not served here`);
  const maxBytes = binary && options.config ? options.config.index.maxFileBytes : GET_DOCUMENT_MAX_BYTES;
  const read = readCheckedFile(absPath, { maxBytes });
  if (!read.ok) {
    if (read.reason === 'vanished') {
      return miss('not-found', `"${shown}" was indexed but no longer exists on disk; search again`);
    }
    const advice =
      read.reason === 'too-large'
        ? { capAdvice: 'get_document serves at most 1 MiB of text; use search to read its sections' }
        : {};
    return miss('refused', describeSkipReason(requestedPath, read, advice).replace(/^skipped /, 'refused '));
  }
  // Checked again after the read: a parent swapped for a link during the read must not slip through.
  const linkedAfterRead = describeLinkedAncestor(options.kbPath, requestedPath, absPath);
  if (linkedAfterRead) return linkedAfterRead;
  if (binary && options.config) {
    const extracted = await extractFile(requestedPath, { bytes: read.bytes, text: '' }, options.config);
    if (!extracted.ok) return miss('refused', extracted.message.replace(/^skipped /, 'refused '));
    const text = renderExtractedText(extracted.extraction);
    const content = truncateToUtf8Bytes(text, GET_DOCUMENT_MAX_BYTES);
    return {
      ok: true,
      document: {
        ...documentFacts(indexed),
        content,
        extracted: true,
        truncated: extracted.extraction.truncated || content.length < text.length,
      },
    };
  }
  const decoded = decodeUtf8Text(read.bytes);
  if (!decoded.ok) {
    return miss('refused', describeSkipReason(requestedPath, decoded).replace(/^skipped /, 'refused '));
  }
  return {
    ok: true,
    document: { ...documentFacts(indexed), content: decoded.text, extracted: false, truncated: false },
  };
}

function documentFacts(indexed: {
  path: string;
  title: string;
  date: string | null;
  topic: string | null;
  tags: string[];
}) {
  const { path, title, date, topic, tags } = indexed;
  return { path, title, date, topic, tags };
}

/** Why a requested path can never name an indexed file, decided before touching the disk; null when fine. */
export function describePathShapeProblem(requested: string): string | null {
  if (requested.length === 0) return 'is empty';
  if (Buffer.byteLength(requested) > MAX_PATH_BYTES) return 'is over 1 KiB';
  if (requested.startsWith('/') || /^[A-Za-z]:/.test(requested) || requested.startsWith('\\')) {
    return 'is absolute, and only paths relative to the knowledge base are served';
  }
  if (requested.includes('\\')) return 'contains a backslash; use "/" between folders';
  const segments = requested.split('/');
  if (segments.includes('..')) return 'contains "..", which is refused';
  if (segments.some((s) => s === '' || s === '.')) return 'has an empty or "." segment (no "./" or "//")';
  if (!isAddressablePath(requested)) return 'contains control characters or a name this system cannot open';
  return null;
}

/** Refuse when the file's real location is not the KB root plus the requested segments (a linked folder). */
function describeLinkedAncestor(kbPath: string, relPath: string, absPath: string): GetDocumentResult | null {
  let real: string;
  try {
    real = fs.realpathSync(absPath);
  } catch {
    return miss(
      'not-found',
      `"${displayPath(relPath)}" was indexed but no longer exists on disk; search again`,
    );
  }
  const expected = path.join(fs.realpathSync(kbPath), ...relPath.split('/'));
  if (real === expected) return null;
  return miss(
    'refused',
    `refused ${displayPath(relPath)}: it is reached through a symbolic link (groove never follows links inside the ` +
      'knowledge base; move the real folder or file into it)',
  );
}

function miss(reason: GetDocumentMiss, message: string): GetDocumentResult {
  return { ok: false, reason, message };
}
