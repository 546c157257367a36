// Binds the file-system adapter, the parsers and the word segmenter to one KB and config (composition root).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { formatOfPath, parseDocument } from '../../core/parse-document.js';
import { segmentForIndex } from '../../core/segment-words.js';
import { decodeUtf8Text, describeSkipReason, readCheckedFile } from '../../fs/checked-read.js';
import { walkKnowledgeBase } from '../../fs/walk-kb.js';
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

export function buildIndexerPorts(kbPath: string, config: ResolvedConfig): IndexerPorts {
  const extensions = config.parsers.enabled;
  return {
    walk() {
      const result = walkKnowledgeBase({ root: kbPath, extensions, excludeDirs: config.excludeDirs });
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
      const decoded = decodeUtf8Text(read.bytes);
      if (!decoded.ok)
        return { ok: false, vanished: false, message: describeSkipReason(file.relPath, decoded) };
      return {
        ok: true,
        // Keep the BOM in the text so chunk byte offsets stay offsets into the file.
        text: decoded.hadBom ? `\uFEFF${decoded.text}` : decoded.text,
        contentHash: createHash('sha256').update(read.bytes).digest('hex'),
        sizeBytes: read.sizeBytes,
        mtimeMs: read.mtimeMs,
      };
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
