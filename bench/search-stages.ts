// Where a warm search spends its retrieval+fusion time: each pipeline stage run on its own against the same
// index and the same query embeddings the facade used (filter resolution, lexical leg, vector KNN, chunk reads).

import { searchStages } from '../src/app/index.js';
import { DEFAULTS } from '../src/config/defaults.js';
import { fuseRrf } from '../src/rank/fuse-rrf.js';
import { createSearchReader } from '../src/store/chunk-search.js';
import { openDatabase } from '../src/store/open-database.js';
import { VectorIndex } from '../src/store/vector-index.js';
import { WordIndex, type WordRankOptions } from '../src/store/word-index.js';
import { WordTokenizer } from '../src/store/word-tokenizer.js';
import type { BenchQuery } from './synthetic-kb.js';
import { summarise, type Timing } from './vector-scan.js';

export interface StageReport {
  /** Opening the snapshot: read every vector and quantise it (paid once per index version, not per search). */
  vector_load_ms: number;
  /** Building the in-memory word snapshot (once per index version in a long-lived session). */
  word_load_ms: number;
  /** Postings in the word snapshot. */
  word_postings: number;
  /** The lexical leg as a one-shot CLI search runs it: FTS5 ranks every matching row. */
  lexical_leg_fts5_ms: Timing;
  filter_resolution_ms: Timing;
  lexical_leg_ms: Timing;
  vector_knn_ms: Timing;
  /** Null when not measured (1M chunks). */
  vector_knn_exact_ms: Timing | null;
  /** RRF of the two legs plus reading the top-10 chunk records. */
  fusion_and_records_ms: Timing;
  /** Per query, the sum of the stages above (median / p95). */
  stages_total_ms: Timing;
  /** Lexical leg by query kind (median ms). */
  lexical_by_kind: Record<string, number>;
}

/** Time each stage `runs` times per query on a read-only connection; embeddings are the real query vectors. */
export function measureStages(
  dbPath: string,
  queries: readonly BenchQuery[],
  embeddings: ReadonlyMap<string, Float32Array>,
  options: { runs: number; dimension: number; exactStages: boolean },
): StageReport {
  const db = openDatabase(dbPath, { readonly: true });
  try {
    const fts5Reader = createSearchReader(db);
    let t = performance.now();
    const index = VectorIndex.load(db, options.dimension);
    const vectorLoadMs = performance.now() - t;
    const f = DEFAULTS.search.fusion;
    const weights = {
      heading: f.bm25HeadingWeight,
      context: f.bm25ContextWeight,
      content: f.bm25ContentWeight,
    };
    t = performance.now();
    const words = WordIndex.load(db, weights);
    const wordLoadMs = performance.now() - t;
    const tokenizer = WordTokenizer.forWordTable(db);
    const reader = fts5Reader;
    // What a long-lived session adds: the in-memory word ranking (its word snapshot, word-snapshots.ts).
    const wordRanking = {
      rankTerms: (terms: readonly string[], rankOptions: WordRankOptions) =>
        words?.rankTerms(tokenizer, terms, rankOptions) ?? null,
      prepareCorpusRanking: () => null,
      heldCorpusRanking: () => null,
    };
    const minQuality = DEFAULTS.qualityFilter.threshold;
    const stage: Record<'filter' | 'lexical' | 'fts5' | 'vector' | 'exact' | 'records' | 'total', number[]> =
      {
        filter: [],
        fts5: [],
        lexical: [],
        vector: [],
        exact: [],
        records: [],
        total: [],
      };
    const lexicalByKind = new Map<string, number[]>();
    for (let run = 0; run < options.runs; run++) {
      for (const q of queries) {
        const request = searchStages.validateRequest(q.request);
        const compiled = searchStages.compileQuery(request.query);
        if (compiled.kind !== 'query') continue;
        const pool = Math.max((request.limit ?? DEFAULTS.search.limit) * 5, 50);
        t = performance.now();
        const filter = searchStages.documentFilter(request);
        const documentIds = filter
          ? reader
              .readDocumentFacts()
              .filter(filter)
              .map((d) => d.id)
          : null;
        const filterMs = performance.now() - t;
        t = performance.now();
        const lexical = searchStages.lexicalLeg(reader, compiled, {
          weights,
          pool,
          minQuality,
          documentIds,
          words: wordRanking,
        });
        const lexicalMs = performance.now() - t;
        t = performance.now();
        searchStages.lexicalLeg(fts5Reader, compiled, { weights, pool, minQuality, documentIds });
        stage.fts5.push(performance.now() - t);
        const embedding = embeddings.get(compiled.trigram.positiveText);
        const knn = {
          k: pool,
          minQuality,
          documentIds: documentIds ? new Set(documentIds) : null,
          excluded: new Set<number>(),
        };
        t = performance.now();
        const hits = embedding ? index.search(embedding, knn) : [];
        const vectorMs = performance.now() - t;
        t = performance.now();
        if (embedding && options.exactStages) {
          index.search(embedding, { ...knn, exact: true });
          stage.exact.push(performance.now() - t);
        }
        t = performance.now();
        const fused = fuseRrf(
          [
            { name: 'lexical', ids: lexical.ids },
            { name: 'vector', ids: hits.map((h) => h.id) },
          ],
          { k: f.rrfK },
        );
        reader.readChunkRecords(fused.slice(0, request.limit ?? DEFAULTS.search.limit).map((h) => h.id));
        const recordsMs = performance.now() - t;
        stage.filter.push(filterMs);
        stage.lexical.push(lexicalMs);
        stage.vector.push(vectorMs);
        stage.records.push(recordsMs);
        stage.total.push(filterMs + lexicalMs + vectorMs + recordsMs);
        const list = lexicalByKind.get(q.kind) ?? [];
        list.push(lexicalMs);
        lexicalByKind.set(q.kind, list);
      }
    }
    return {
      vector_load_ms: vectorLoadMs,
      word_load_ms: wordLoadMs,
      word_postings: words?.postingCount ?? 0,
      lexical_leg_fts5_ms: summarise(stage.fts5),
      filter_resolution_ms: summarise(stage.filter),
      lexical_leg_ms: summarise(stage.lexical),
      vector_knn_ms: summarise(stage.vector),
      vector_knn_exact_ms: stage.exact.length > 0 ? summarise(stage.exact) : null,
      fusion_and_records_ms: summarise(stage.records),
      stages_total_ms: summarise(stage.total),
      lexical_by_kind: Object.fromEntries(
        [...lexicalByKind].map(([kind, xs]) => [kind, summarise(xs).median]),
      ),
    };
  } finally {
    db.close();
  }
}
