// The leg probe run before eval and tune measure anything: one query taken from the index itself goes through
// every configured leg, and any leg that failed — or answered empty for words it indexed — is reported down.
// Hybrid search survives a dead leg by answering from the others; a benchmark must not.
import { GrooveError } from '../../errors.js';
import type { ChunkRecord, DocumentFacts } from '../../types.js';
import {
  describeLeg,
  type LegHealth,
  type LegReport,
  legBroke,
  type SearchResponse,
} from '../search/index.js';

export type LegName = keyof LegReport;

export interface LegDown {
  leg: LegName;
  /** Why, in words: the leg's own failure message, or what it should have answered. */
  reason: string;
}

export interface LegProbeResult {
  /** The probe text; null when the index has no chunk to take it from. */
  query: string | null;
  /** What each leg answered to the probe. */
  legs: LegReport;
  /** The legs that were expected to run and did not (empty when healthy). */
  down: LegDown[];
}

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
 * and judge each configured leg. `failed` or `partial` is down; so is a configured leg that reports `disabled`, and — when the
 * probe came from the index — a leg that answered `empty`: an empty list from a leg that should match is the
 * fake green this probe exists to catch.
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
  const down: LegDown[] = [];
  const judge = (leg: LegName, configured: boolean, what: string) => {
    const reason = judgeLeg(legs[leg], configured, sample !== null, what);
    if (reason) down.push({ leg, reason });
  };
  judge('lexical', true, 'full-text search');
  judge('vector', !response.lexicalOnly, 'the embedding model / vector index');
  judge('reranker', options.rerank, 'the cross-encoder');
  return { query: sample, legs, down };
}

function judgeLeg(health: LegHealth, configured: boolean, fromIndex: boolean, what: string): string | null {
  if (legBroke(health)) return describeLeg(health);
  if (!configured) return null;
  if (health.status === 'disabled') return `${what} is configured but did not run`;
  if (health.status === 'empty' && fromIndex) {
    return `${what} answered nothing for words copied from an indexed chunk`;
  }
  return null;
}

/** `component down: vector — failed: …` for the first leg down, naming the others. */
export function describeLegsDown(down: readonly LegDown[]): string {
  const [first, ...rest] = down;
  if (!first) return 'no component is down';
  const also = rest.length > 0 ? ` (also down: ${rest.map((d) => `${d.leg} — ${d.reason}`).join('; ')})` : '';
  return `component down: ${first.leg} — ${first.reason}${also}`;
}

/** The refusal eval and tune share: what is down, why measuring would mislead, and the override. */
export function componentDownError(message: string): GrooveError {
  return new GrooveError(
    'COMPONENT_DOWN',
    `${message}. Hybrid search quietly answers from the remaining legs when one fails, so this run would measure a different system than the one it names`,
    {
      hint: 'bring the component back (or repair the index with `groove index --force`); --allow-degraded measures anyway and records the run as degraded, never comparable with a healthy one',
    },
  );
}

/** Throw the refusal when the probe found a leg down (callers skip this with --allow-degraded). */
export function refuseDownLegs(probe: LegProbeResult): void {
  if (probe.down.length > 0) throw componentDownError(describeLegsDown(probe.down));
}
