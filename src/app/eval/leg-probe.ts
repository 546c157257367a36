// The leg probe run before eval and tune measure anything: one query taken from the index itself goes through
// every configured leg; measure/leg-verdict.ts judges which legs are down.
import { judgeProbeLegs, type LegProbeResult } from '../../measure/leg-verdict.js';
import type { ChunkRecord, DocumentFacts } from '../../types.js';
import type { ReadSnapshot, SearchResponse } from '../search/index.js';

export interface LegProbeOptions {
  /** Probe the cross-encoder too (a reranker is configured for the measurement). */
  rerank: boolean;
}

/** Where the probe text comes from: the index's first document with enough words in one of its first chunks. */
export interface ProbeSampleReader {
  readDocumentFacts(): DocumentFacts[];
  readDocumentChunks(documentId: number, maxRows: number): ChunkRecord[];
}

const PROBE_WORDS = 12;
const MAX_WORD_CHARS = 32;
const DOCUMENTS_TRIED = 20;

/**
 * Words of one indexed chunk (letters and digits only, so no query syntax can sneak in), or null when the
 * index holds no chunk with at least three of them. Every lexical leg indexes these words, so a leg that
 * answers the probe with nothing is broken, not unlucky.
 */
export function pickProbeSample(reader: ProbeSampleReader): string | null {
  const documents = reader.readDocumentFacts().slice(0, DOCUMENTS_TRIED);
  for (const document of documents) {
    for (const chunk of reader.readDocumentChunks(document.id, 4)) {
      const words = (chunk.content.match(/[\p{L}\p{N}]+/gu) ?? [])
        .filter((w) => [...w].length >= 3)
        .slice(0, PROBE_WORDS)
        .map((w) => [...w].slice(0, MAX_WORD_CHARS).join(''));
      if (words.length >= 3) return words.join(' ');
    }
  }
  return null;
}

/**
 * Send the probe through the pipeline with nothing optional in the way (no filters, no quality floor, no MMR)
 * and judge each configured leg (judgeProbeLegs).
 */
export async function probeLegs(
  search: (request: unknown) => Promise<SearchResponse>,
  sample: string | null,
  options: LegProbeOptions,
): Promise<LegProbeResult> {
  const response = await search({
    query: sample ?? 'groove leg probe',
    limit: 5,
    includeLowQuality: true,
    rerank: options.rerank,
    mmr: false,
    parentRetriever: false,
  });
  const { legs } = response;
  const down = judgeProbeLegs(legs, {
    lexicalOnly: response.lexicalOnly,
    rerank: options.rerank,
    fromIndex: sample !== null,
  });
  return { query: sample, legs, down };
}

/** The probe inside one read snapshot: its sample taken from the snapshot's own index. */
export function probeSnapshotLegs(snapshot: ReadSnapshot, options: LegProbeOptions): Promise<LegProbeResult> {
  return probeLegs((request) => snapshot.search(request), pickProbeSample(snapshot.reader), options);
}
