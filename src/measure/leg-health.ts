// Building and reading one retrieval leg's health: the states a leg reports and the one-line description
// logs, warnings and refusals print.
import type { LegHealth } from '../types.js';

/** The health of a leg that answered: ok with candidates, else empty. */
export function answeredLeg(candidates: number): LegHealth {
  return { status: candidates > 0 ? 'ok' : 'empty', candidates };
}

export function disabledLeg(): LegHealth {
  return { status: 'disabled', candidates: 0 };
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
  return health.error === undefined ? health.status : `${health.status}: ${health.error}`;
}
