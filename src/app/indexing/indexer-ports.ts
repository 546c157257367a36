// Binds the file-system adapter, the parsers and the word segmenter to one KB and config (composition root).

import fs from 'node:fs';
import path from 'node:path';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { displayPath } from '../../core/display-path.js';
import { sha256Hex } from '../../core/sha256.js';
import { codeLanguageOfPath, formatOfPath, isBinaryFormat } from '../../document/document-formats.js';
import { type Extraction, parseExtraction } from '../../document/extracted-document.js';
import { parseDocument, titleFromFileName } from '../../document/parse-document.js';
import { decodeUtf8Text, describeSkipReason, readCheckedFile } from '../../fs/checked-read.js';
import type { ExtractionLimits } from '../../fs/extract/extract-job.js';
import { describeExtractRefusal } from '../../fs/extract/extract-refusal.js';
import { sharedExtractionPool } from '../../fs/extract/extraction-pool.js';
import { walkKnowledgeBase, walkPaths } from '../../fs/walk-kb.js';
import { segmentForIndex } from '../../rank/segment-words.js';
import type { ParsedDocument } from '../../types.js';
import { indexFilePaths, isInside } from './index-database.js';
import type { IndexerPorts } from './indexer.js';

/** The config key that raises the per-file cap (the fs adapter does not know the config's spelling). */
const TOO_LARGE_ADVICE = 'raise [index] max_file_size in groove.toml, e.g. "100MiB"';

/**
 * The KB-relative paths of groove's own files for this index, should they sit inside the KB (the facade refuses
 * such a --db-path; this keeps the walk from ever indexing an index, its lock or a rebuild all the same).
 */
function ownFilesInKb(kbPath: string, dbPath: string | null): Set<string> {
  const own = new Set<string>();
  if (!dbPath) return own;
  const root = fs.realpathSync(kbPath);
  let folder: string;
  try {
    folder = fs.realpathSync(path.dirname(path.resolve(dbPath)));
  } catch {
    return own;
  }
  for (const file of indexFilePaths(path.join(folder, path.basename(dbPath)))) {
    if (isInside(root, file)) own.add(path.relative(root, file).split(path.sep).join('/'));
  }
  return own;
}

/** The caps of one file's extraction, from `[parsers]` and `[chunking]`. */
export function extractionLimitsOf(config: ResolvedConfig): ExtractionLimits {
  const parsers = config.parsers;
  return {
    timeoutMs: parsers.timeoutSeconds * 1000,
    maxMemoryBytes: parsers.maxMemoryBytes,
    maxDecompressedBytes: parsers.maxDecompressedBytes,
    maxZipEntries: 10_000,
    maxPages: parsers.maxPages,
    maxSheets: parsers.maxSheets,
    maxCellsPerSheet: parsers.maxCellsPerSheet,
    maxSlides: parsers.maxSlides,
    maxTextChars: parsers.maxTextChars,
    chunkBytes: config.chunking.maxChunkBytes,
    maxHeadingLevel: config.chunking.maxHeadingLevel,
  };
}

/** Whether a file's text comes out of the extraction process: the binary formats, and code with a grammar. */
export function needsExtraction(relPath: string): boolean {
  const format = formatOfPath(relPath);
  return isBinaryFormat(format) || (format === 'code' && codeLanguageOfPath(relPath)?.grammar != null);
}

export type ExtractedFile = { ok: true; extraction: Extraction } | { ok: false; message: string };

/**
 * Extract one file in the extraction process: a binary format from its bytes, code from its text. Never throws: a
 * refusal (encrypted, corrupt, no text, zip bomb, deadline, crash) comes back as the skip message.
 */
export async function extractFile(
  relPath: string,
  content: { bytes: Uint8Array; text: string },
  config: ResolvedConfig,
): Promise<ExtractedFile> {
  const format = formatOfPath(relPath);
  const limits = extractionLimitsOf(config);
  const language = codeLanguageOfPath(relPath);
  const outcome = isBinaryFormat(format)
    ? await sharedExtractionPool().extract({ format, bytes: content.bytes, limits })
    : await sharedExtractionPool().extract({
        format: 'code',
        text: content.text,
        grammar: language?.grammar ?? '',
        language: language?.id ?? '',
        limits,
      });
  if (outcome.ok) return outcome;
  return { ok: false, message: describeExtractRefusal(displayPath(relPath), outcome) };
}

/** An extraction as the document the indexer writes. */
export function parseExtractedFile(
  relPath: string,
  extraction: Extraction,
  config: ResolvedConfig,
): ParsedDocument {
  return parseExtraction({
    path: relPath,
    extraction,
    fallbackTitle: titleFromFileName(relPath),
    maxChunkBytes: config.chunking.maxChunkBytes,
    excludeHeadings: config.excludeHeadings,
  });
}

export function buildIndexerPorts(kbPath: string, config: ResolvedConfig): IndexerPorts {
  const extensions = config.parsers.extensions;
  return {
    walk(paths) {
      const options = { root: kbPath, extensions, excludeDirs: config.excludeDirs };
      const result = paths ? walkPaths({ ...options, paths }) : walkKnowledgeBase(options);
      const own = ownFilesInKb(kbPath, config.dbPath);
      return {
        files: own.size === 0 ? result.files : result.files.filter((file) => !own.has(file.relPath)),
        skipped: result.skipped.map((s) => ({
          relPath: s.relPath,
          message: describeSkipReason(s.relPath, s),
        })),
        warnings: result.warnings,
        unreadableDirs: result.unreadableDirs,
      };
    },
    readFile(file) {
      const read = readCheckedFile(file.absPath, { maxBytes: config.index.maxFileBytes });
      if (!read.ok) {
        return {
          ok: false,
          vanished: read.reason === 'vanished',
          message: describeSkipReason(file.relPath, read, { capAdvice: TOO_LARGE_ADVICE }),
        };
      }
      const contentHash = sha256Hex(read.bytes);
      const facts = { contentHash, sizeBytes: read.sizeBytes, mtimeMs: read.mtimeMs };
      // Binary formats stay bytes until the extraction process reads them (and only when their hash changed).
      if (isBinaryFormat(formatOfPath(file.relPath)))
        return { ok: true, text: '', bytes: read.bytes, ...facts };
      const decoded = decodeUtf8Text(read.bytes);
      if (!decoded.ok)
        return { ok: false, vanished: false, message: describeSkipReason(file.relPath, decoded) };
      // Keep the BOM in the text so chunk byte offsets stay offsets into the file.
      return { ok: true, text: decoded.hadBom ? `\uFEFF${decoded.text}` : decoded.text, ...facts };
    },
    async extract(relPath, read) {
      if (!needsExtraction(relPath)) return { ok: true, parsed: this.parse(relPath, read.text) };
      const extracted = await extractFile(
        relPath,
        { bytes: read.bytes ?? new Uint8Array(0), text: read.text },
        config,
      );
      if (!extracted.ok) return extracted;
      return { ok: true, parsed: parseExtractedFile(relPath, extracted.extraction, config) };
    },
    parse(relPath, text) {
      const format = formatOfPath(relPath);
      return parseDocument({
        path: relPath,
        text,
        format,
        options: {
          maxHeadingLevel: config.chunking.maxHeadingLevel,
          maxChunkBytes: config.chunking.maxChunkBytes,
          minChunkBytes: config.chunking.minChunkBytes,
          excludeHeadings: config.excludeHeadings,
        },
      });
    },
    segment: segmentForIndex,
  };
}
