// Building and reading one retrieval leg's health: the states a leg reports and the one-line description
// logs, warnings and refusals print.
import type { LegHealth } from '../types.js';

/** The health of a leg that answered: ok with candidates, else empty. */
export function answeredLeg(candidates: number): LegHealth {
  return { status: candidates > 0 ? 'ok' : 'empty', candidates };
}

/** A leg that did not run; `reason` says why when a request chose that (see LegHealth.reason). */
export function disabledLeg(reason?: string): LegHealth {
  return reason === undefined
    ? { status: 'disabled', candidates: 0 }
    : { status: 'disabled', candidates: 0, reason };
}

export function failedLeg(error: string): LegHealth {
  return { status: 'failed', candidates: 0, error };
}

/** True when the leg broke, wholly or in part: what eval's probe and degraded-run checks look for. */
export function legBroke(health: LegHealth): boolean {
  return health.status === 'failed' || health.status === 'partial';
}

/** `failed: <error>` / `partial: <error>` / the bare state: one line for logs, warnings and refusals. */
export function describeLeg(health: LegHealth): string {
  const detail = health.error ?? health.reason;
  return detail === undefined ? health.status : `${health.status}: ${detail}`;
}
