// The integrity checks: whether the rows of the index agree with each other. Every table is derived from the
// files, so each broken rule is repaired by rebuilding (`groove index --force`), except where a plain run fills in
// what is missing. A check whose tables are absent does not apply; the missing-table checks report those.
import type { FtsTableName, RuleBreaks } from '../../store/index-integrity.js';
import {
  type DoctorCheck,
  type DoctorContext,
  detectBreaks,
  hasTables,
  NOT_APPLICABLE,
  plural,
} from './doctor-report.js';

const REBUILD = 'groove index --force (rebuilds the index from the files and swaps it in when complete)';
const FTS_TABLES: readonly FtsTableName[] = ['fts_words', 'fts_chunks'];

/** The FTS tables whose rows can be listed (the table and its docsize shadow table are both there). */
function listableFtsTables(context: DoctorContext): FtsTableName[] {
  return FTS_TABLES.filter((table) => hasTables(context, table, `${table}_docsize`, 'chunks', 'documents'));
}

/** One rule over both FTS tables: counts added up, samples from each table in turn. */
function acrossFtsTables(context: DoctorContext, rule: (table: FtsTableName) => RuleBreaks): RuleBreaks {
  const all: RuleBreaks = { count: 0, samples: [] };
  for (const table of listableFtsTables(context)) {
    const breaks = rule(table);
    all.count += breaks.count;
    all.samples.push(...breaks.samples);
  }
  return all;
}

const hasModel = (context: DoctorContext) =>
  context.identity !== null && context.identity.provider !== 'none' && context.identity.dimension > 0;

export const INTEGRITY_CHECKS: readonly DoctorCheck[] = [
  {
    check: 'database-damaged',
    severity: 'error',
    meaning: "SQLite's `quick_check` reports damaged pages",
    remedy: REBUILD,
    inspect({ reader }) {
      const problems = reader.quickCheck();
      if (problems.length === 0) return null;
      return {
        count: problems.length,
        summary: `SQLite's quick_check reports ${plural(problems.length, 'problem')} in the index file`,
        samples: problems,
      };
    },
  },
  {
    check: 'schema-newer',
    severity: 'error',
    meaning: 'built by a newer groove (a later `schema_version`)',
    remedy: 'use the groove version that built this index, or rebuild it with groove index --force',
    inspect({ schema }) {
      if (schema.recorded <= schema.current) return null;
      return {
        count: 1,
        summary: `the index was built with schema ${schema.recorded}; this groove knows schema ${schema.current} and older`,
      };
    },
  },
  {
    check: 'schema-outdated',
    severity: 'warning',
    meaning: 'built with an older schema',
    remedy: 'groove index (migrates the file in place and fills in what the new schema adds)',
    inspect({ schema }) {
      if (schema.recorded >= schema.current) return null;
      return {
        count: 1,
        summary: `the index was built with schema ${schema.recorded || 'unknown'}; this groove writes schema ${schema.current}`,
      };
    },
  },
  {
    check: 'table-missing',
    severity: 'error',
    meaning: '`index_meta`, `documents` or `chunks` is gone',
    remedy: REBUILD,
    inspect(context) {
      const missing = ['index_meta', 'documents', 'chunks'].filter((table) => !context.tables.has(table));
      if (missing.length === 0) return null;
      return { count: missing.length, summary: 'the index lacks tables every index has', samples: missing };
    },
  },
  {
    check: 'vector-table-missing',
    severity: 'error',
    meaning: '`chunk_vectors` is gone',
    remedy: REBUILD,
    inspect(context) {
      if (context.tables.has('chunk_vectors')) return null;
      return { count: 1, summary: 'the index has no chunk_vectors table', samples: ['chunk_vectors'] };
    },
  },
  {
    check: 'fts-table-missing',
    severity: 'error',
    meaning: '`fts_words` or `fts_chunks` (or its `_docsize` table) is gone',
    remedy: REBUILD,
    inspect(context) {
      const missing = FTS_TABLES.flatMap((table) =>
        [table, `${table}_docsize`].filter((name) => !context.tables.has(name)),
      );
      if (missing.length === 0) return null;
      return {
        count: missing.length,
        summary: 'the index lacks full-text tables (the lexical leg cannot search without them)',
        samples: missing,
      };
    },
  },
  {
    check: 'chunk-without-document',
    severity: 'error',
    meaning: 'chunks whose document row is gone',
    remedy: REBUILD,
    inspect(context) {
      if (!hasTables(context, 'chunks', 'documents')) return NOT_APPLICABLE;
      return detectBreaks(
        context.reader.chunksWithoutDocument(),
        (n) => `${plural(n, 'chunk')} with no document: searches can return them but not say where from`,
      );
    },
  },
  {
    check: 'document-without-chunks',
    severity: 'error',
    meaning: 'documents no search can find',
    remedy: REBUILD,
    inspect(context) {
      if (!hasTables(context, 'chunks', 'documents')) return NOT_APPLICABLE;
      return detectBreaks(
        context.reader.documentsWithoutChunks(),
        (n) => `${plural(n, 'document')} with no chunks: no search can find them`,
      );
    },
  },
  {
    check: 'missing-embedding',
    severity: 'error',
    meaning: 'chunks without a vector, and not queued for one, in an index with a model',
    remedy: REBUILD,
    inspect(context) {
      if (!hasModel(context) || !hasTables(context, 'chunk_vectors', 'chunks', 'documents'))
        return NOT_APPLICABLE;
      return detectBreaks(
        context.reader.chunksWithoutVectors(context.tables.has('embedding_queue')),
        (n) =>
          `${plural(n, 'chunk')} of ${context.counts.chunks} with no vector from ${context.identity?.model}, and not queued for one: the vector leg cannot find them`,
      );
    },
  },
  {
    check: 'embedding-pending',
    severity: 'warning',
    meaning:
      'chunks still queued for their vector (an index run stopped before it finished embedding; searches find them by keyword only)',
    remedy: 'groove index (it embeds the queued chunks first; `groove serve` does it in the background)',
    inspect(context) {
      if (!hasModel(context) || !hasTables(context, 'embedding_queue', 'chunks')) return NOT_APPLICABLE;
      return detectBreaks(
        context.reader.queuedChunks(),
        (n) =>
          `${plural(n, 'chunk')} of ${context.counts.chunks} still waiting for a vector (an index run stopped before it finished embedding): searches find them by keyword only`,
      );
    },
  },
  {
    check: 'orphan-embedding',
    severity: 'error',
    meaning: 'vectors whose chunk is gone',
    remedy: REBUILD,
    inspect(context) {
      if (!hasTables(context, 'chunk_vectors', 'chunks')) return NOT_APPLICABLE;
      return detectBreaks(
        context.reader.orphanVectors(),
        (n) => `${plural(n, 'vector')} whose chunk is gone: vector searches spend result slots on them`,
      );
    },
  },
  {
    check: 'embedding-wrong-size',
    severity: 'error',
    meaning: "vectors not of the index's dimension",
    remedy: REBUILD,
    inspect(context) {
      if (!hasModel(context) || !hasTables(context, 'chunk_vectors', 'chunks', 'documents'))
        return NOT_APPLICABLE;
      const dimension = context.identity?.dimension ?? 0;
      return detectBreaks(
        context.reader.vectorsNotOfSize(dimension * 4),
        (n) =>
          `${plural(n, 'vector')} not ${dimension}-dimensional (${dimension * 4} bytes) like the index's model: vector searches cannot score them`,
      );
    },
  },
  {
    check: 'missing-fts-row',
    severity: 'error',
    meaning: 'chunks missing from `fts_words` or `fts_chunks`',
    remedy: REBUILD,
    inspect(context) {
      if (listableFtsTables(context).length === 0) return NOT_APPLICABLE;
      return detectBreaks(
        acrossFtsTables(context, (table) => context.reader.chunksMissingFrom(table)),
        (n) => `${plural(n, 'chunk')} missing from a full-text table: the lexical leg cannot find them there`,
      );
    },
  },
  {
    check: 'orphan-fts-row',
    severity: 'error',
    meaning: 'FTS rows whose chunk is gone',
    remedy: REBUILD,
    inspect(context) {
      if (listableFtsTables(context).length === 0) return NOT_APPLICABLE;
      return detectBreaks(
        acrossFtsTables(context, (table) => context.reader.orphanFtsRows(table)),
        (n) =>
          `${plural(n, 'full-text row')} whose chunk is gone: lexical searches match text that is no longer indexed`,
      );
    },
  },
  {
    check: 'word-counts-missing',
    severity: 'warning',
    meaning: 'chunks without `chunk_word_counts` (long-lived sessions rank through FTS5: slower, same order)',
    remedy: 'groove index (fills in the missing counts)',
    inspect(context) {
      if (!hasTables(context, 'chunks', 'documents')) return NOT_APPLICABLE;
      const effect =
        'long-lived sessions (serve, eval, tune) rank words through FTS5 instead (slower, same order)';
      if (!context.tables.has('chunk_word_counts')) {
        if (context.counts.chunks === 0) return null;
        return {
          count: context.counts.chunks,
          summary: `the index has no chunk_word_counts table: ${effect}`,
        };
      }
      return detectBreaks(
        context.reader.chunksWithoutWordCounts(),
        (n) => `${plural(n, 'chunk')} with no word counts: ${effect}`,
      );
    },
  },
  {
    check: 'word-counts-stale',
    severity: 'error',
    meaning: 'word counts of no chunk, of unknown terms, or whose per-column totals differ from `fts_words`',
    remedy: REBUILD,
    inspect(context) {
      const needed = ['chunk_word_counts', 'word_terms', 'fts_words_docsize', 'chunks', 'documents'];
      if (!hasTables(context, ...needed)) return NOT_APPLICABLE;
      const orphans = context.reader.orphanWordCounts();
      const disagreeing = context.reader.wordCountsDisagreeing();
      return detectBreaks(
        { count: orphans.count + disagreeing.count, samples: [...orphans.samples, ...disagreeing.samples] },
        (n) =>
          `${plural(n, 'word-count row')} out of step with fts_words: in-memory word ranking (serve, eval, tune) scores with wrong counts`,
      );
    },
  },
  {
    check: 'links-not-read',
    severity: 'warning',
    meaning:
      "the notes' links were read by older link rules, or never (an index migrated to schema 4 by a search, before its next run): the graph misses links",
    remedy: 'groove index (reads every note once; no vector is embedded again)',
    inspect(context) {
      // An index from before links is reported by schema-outdated; its next run reads them.
      if (!hasTables(context, 'links', 'document_names', 'documents')) return NOT_APPLICABLE;
      const { recorded, current } = context.linkRules;
      if (context.counts.documents === 0 || recorded === current) return null;
      return {
        count: context.counts.documents,
        summary: `the notes' links were last read ${recorded === null ? 'never' : `with link rules ${recorded}`} (this groove applies ${current}): the graph misses links, and dangling links are not counted right`,
      };
    },
  },
];
