// Several indexes read as one index, so the one search pipeline (searcher.ts) ranks them as one corpus. Ids are
// made unique by interleaving: chunk or document `local` of part `p` of `n` is `local · n + p` (one part keeps its
// own ids). Paths a stage keys by (chunk keys, link edges, judgments) carry their part as `p\0path`; the paths of
// records and document facts stay as indexed, so filters and hits see each KB's own paths. bm25 legs combine the
// parts' statistics (store/corpus-ranking.ts): each part scores its matches with the sums, and the best of all
// parts are kept, exactly as one index holding every part's rows would rank them (up to ties).

import { sumCorpusStats } from '../../rank/bm25-rank.js';
import type {
  ChunkKey,
  FtsTable,
  LexicalQueryOptions,
  SearchReader,
  SubstringOptions,
} from '../../store/chunk-search.js';
import type { ChunkRecord, DocumentFacts } from '../../types.js';
import type { SearchCache } from './search-cache.js';

/** What a search reads of one index, or of several read as one: the store's statements and the caches. */
export interface PartReads {
  reader: SearchReader;
  cache: SearchCache;
}

/** How ids and paths of `count` parts are told apart once read as one. */
export class PartIds {
  constructor(readonly count: number) {}

  global(part: number, local: number): number {
    return local * this.count + part;
  }

  partOf(global: number): number {
    return global % this.count;
  }

  localOf(global: number): number {
    return Math.floor(global / this.count);
  }

  /** A path keyed by its part. */
  qualify(part: number, path: string): string {
    return `${part}\u0000${path}`;
  }

  /** The part and the indexed path of a qualified path (part 0 for a path without one). */
  unqualify(qualified: string): { part: number; path: string } {
    const at = qualified.indexOf('\u0000');
    if (at < 0) return { part: 0, path: qualified };
    return { part: Number(qualified.slice(0, at)), path: qualified.slice(at + 1) };
  }

  /** Global ids grouped by part, as local ids. */
  split(globals: Iterable<number>): number[][] {
    const byPart: number[][] = Array.from({ length: this.count }, () => []);
    for (const id of globals) byPart[this.partOf(id)]!.push(this.localOf(id));
    return byPart;
  }

  /** A document filter per part: null (no filter) stays null for every part. */
  splitFilter(globals: readonly number[] | null): (readonly number[] | null)[] {
    return globals === null ? Array.from({ length: this.count }, () => null) : this.split(globals);
  }

  /** Paths grouped by part, as indexed paths. */
  splitPaths(qualified: readonly string[]): string[][] {
    const byPart: string[][] = Array.from({ length: this.count }, () => []);
    for (const path of qualified) {
      const { part, path: own } = this.unqualify(path);
      byPart[part]?.push(own);
    }
    return byPart;
  }
}

/** Best first by score, equal scores by global id; at most `limit`. */
function bestOf(scored: { id: number; score: number }[], limit: number): number[] {
  scored.sort((a, b) => b.score - a.score || a.id - b.id);
  return scored.slice(0, limit).map((s) => s.id);
}

/** Records (or keys) of global ids, each read from its part, in the order of `ids`. */
function readByPart<T extends { id: number }>(
  ids: PartIds,
  globals: readonly number[],
  read: (part: number, locals: number[]) => T[],
  relabel: (part: number, row: T) => T,
): T[] {
  const found = new Map<number, T>();
  ids.split(globals).forEach((locals, part) => {
    if (locals.length === 0) return;
    for (const row of read(part, locals)) {
      const labelled = relabel(part, row);
      found.set(labelled.id, labelled);
    }
  });
  return globals.flatMap((id) => {
    const row = found.get(id);
    return row ? [row] : [];
  });
}

/**
 * Several parts' reads (one per index) as one index's, for the search pipeline: the parts' document facts come
 * from their caches; the combined search ranks no words in memory itself (each part's snapshot answers inside
 * searchFts).
 */
export function combineReads(parts: readonly PartReads[]): PartReads {
  const ids = new PartIds(parts.length);
  const relabel = (part: number, facts: DocumentFacts[]) =>
    facts.map((fact) => ({ ...fact, id: ids.global(part, fact.id) }));
  return {
    reader: combineReaders(parts),
    cache: {
      documentFacts: () => parts.flatMap((p, part) => relabel(part, p.cache.documentFacts())),
      words: null,
    },
  };
}

/** One SearchReader over several parts' readers (one per index). */
function combineReaders(parts: readonly PartReads[]): SearchReader {
  const readers = parts.map((part) => part.reader);
  const ids = new PartIds(readers.length);
  const record = (part: number, r: ChunkRecord): ChunkRecord => ({
    ...r,
    id: ids.global(part, r.id),
    documentId: ids.global(part, r.documentId),
  });
  const key = (part: number, k: ChunkKey): ChunkKey => ({
    id: ids.global(part, k.id),
    documentId: ids.global(part, k.documentId),
    path: ids.qualify(part, k.path),
    heading: k.heading,
  });

  /**
   * Each part's best matches under the summed statistics. A part's word snapshot answers when it can (no
   * postings read); each snapshot's best hit is confirmed by FTS5, and any doubt ranks every part from postings.
   */
  const searchFts = (table: FtsTable, options: LexicalQueryOptions, snapshots = true): number[] => {
    if (!options.phrases) throw new Error('ranking several indexes as one needs the expression phrases');
    const query = { table, expression: options.expression, phrases: options.phrases };
    const prepared = parts.map(({ reader, cache }) => {
      const snapshot = snapshots ? (cache.words?.prepareCorpusRanking(query, options.weights) ?? null) : null;
      return { snapshot: snapshot !== null, ranking: snapshot ?? reader.prepareCorpusRanking(query) };
    });
    // Filters never change the statistics: bm25 divides by the whole table's, filtered or not.
    const corpus = sumCorpusStats(prepared.map((p) => p.ranking.stats));
    const filters = ids.splitFilter(options.documentIds);
    const ranked = prepared.map(({ ranking }, part) => {
      const documentIds = filters[part]!;
      if (documentIds !== null && documentIds.length === 0) return [];
      return ranking.rank(corpus, { ...options, documentIds });
    });
    const doubted = ranked.some(
      (rows, part) =>
        prepared[part]!.snapshot &&
        rows.length > 0 &&
        !readers[part]!.confirmMatch(table, options.expression, rows[0]!.id),
    );
    if (doubted) return searchFts(table, options, false);
    const scored = ranked.flatMap((rows, part) =>
      rows.map((row) => ({ id: ids.global(part, row.id), score: row.score })),
    );
    return bestOf(scored, options.limit);
  };

  const rankSubstrings = (terms: readonly string[], options: SubstringOptions) => {
    const filters = ids.splitFilter(options.documentIds);
    const scored = readers.flatMap((reader, part) =>
      reader
        .rankSubstrings(terms, { ...options, documentIds: filters[part]! })
        .map((row) => ({ id: ids.global(part, row.id), hits: row.hits })),
    );
    scored.sort((a, b) => b.hits - a.hits || a.id - b.id);
    return scored.slice(0, options.limit);
  };

  return {
    searchFts,
    rankSubstrings,
    searchSubstrings: (terms, options) => rankSubstrings(terms, options).map((row) => row.id),
    prepareCorpusRanking: () => {
      throw new Error('a combined reader is not one index: rank through searchFts');
    },
    findExcludedChunkIds: (expression) =>
      new Set(
        readers.flatMap((reader, part) =>
          [...reader.findExcludedChunkIds(expression)].map((id) => ids.global(part, id)),
        ),
      ),
    countFtsUnion: (parts) => readers.reduce((sum, reader) => sum + reader.countFtsUnion(parts), 0),
    countRows: (table) => readers.reduce((sum, reader) => sum + reader.countRows(table), 0),
    openWordPostings: () => {
      throw new Error('a combined reader has no postings of its own');
    },
    readChunkRecords: (globals) =>
      readByPart(ids, globals, (part, locals) => readers[part]!.readChunkRecords(locals), record),
    readDocumentChunks: (documentId, maxRows) =>
      readers[ids.partOf(documentId)]!.readDocumentChunks(ids.localOf(documentId), maxRows).map((r) =>
        record(ids.partOf(documentId), r),
      ),
    readDocumentFacts: () =>
      readers.flatMap((reader, part) =>
        reader.readDocumentFacts().map((facts) => ({ ...facts, id: ids.global(part, facts.id) })),
      ),
    readChunkKeys: (globals) =>
      readByPart(ids, globals, (part, locals) => readers[part]!.readChunkKeys(locals), key),
    readDocumentChunkKeys: (qualified, minQuality) => {
      const { part, path } = ids.unqualify(qualified);
      const reader = readers[part];
      return reader ? reader.readDocumentChunkKeys(path, minQuality).map((k) => key(part, k)) : [];
    },
    confirmMatch: (table, expression, id) =>
      readers[ids.partOf(id)]!.confirmMatch(table, expression, ids.localOf(id)),
    readLinkEdges: (qualified) =>
      ids.splitPaths(qualified).flatMap((paths, part) =>
        paths.length === 0
          ? []
          : readers[part]!.readLinkEdges(paths).map((edge) => ({
              ...edge,
              source: ids.qualify(part, edge.source),
              target: ids.qualify(part, edge.target),
            })),
      ),
  };
}
