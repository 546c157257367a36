// Judging the leg probe eval and tune send before they measure: which configured leg is down and why, and the
// refusal both commands share. Hybrid search survives a dead leg by answering from the others; a benchmark must not.
import { GrooveError } from '../errors.js';
import type { LegHealth, LegReport } from '../types.js';
import { describeLeg, legBroke } from './leg-health.js';

export type LegName = 'lexical' | 'vector' | 'reranker';

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

/** Which legs were asked to run, and whether the probe text came from the index. */
export interface ProbeSetup {
  /** No embedding model: the vector leg is not configured. */
  lexicalOnly: boolean;
  /** A reranker is configured for the measurement. */
  rerank: boolean;
  /** The probe words were copied from an indexed chunk, so every lexical leg must match them. */
  fromIndex: boolean;
}

/**
 * The legs down in a probe's answer. `failed` or `partial` is down; so is a configured leg that reports
 * `disabled`, and — when the probe came from the index — a leg that answered `empty`: an empty list from a leg
 * that should match is the fake green the probe exists to catch.
 */
export function judgeProbeLegs(legs: LegReport, setup: ProbeSetup): LegDown[] {
  const down: LegDown[] = [];
  const judge = (leg: LegName, configured: boolean, what: string) => {
    const reason = judgeLeg(legs[leg], configured, setup.fromIndex, what);
    if (reason) down.push({ leg, reason });
  };
  judge('lexical', true, 'full-text search');
  judge('vector', !setup.lexicalOnly, 'the embedding model / vector index');
  judge('reranker', setup.rerank, 'the cross-encoder');
  return down;
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
