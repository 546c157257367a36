// The stale-quote check of eval: a golden `quote` in no chunk of its document can never be found, so the run
// would count the set's age as a retrieval miss. Refused like a golden set past its age (exit 3), unless
// --allow-stale-golden, which measures anyway and says which entries cannot be found.
import { GrooveError } from '../../errors.js';
import { describeStaleQuote, type StaleQuote } from '../../measure/golden-quote-presence.js';
import type { GoldenSet } from '../golden/index.js';

const LISTED = 5;

function listed(stale: readonly StaleQuote[]): string {
  const shown = stale.slice(0, LISTED).map(describeStaleQuote);
  const more = stale.length > LISTED ? `; and ${stale.length - LISTED} more` : '';
  return `${shown.join('; ')}${more}`;
}

/** Refuse a golden set with stale quotes unless the run allows a stale golden set. */
export function checkStaleQuotes(
  golden: GoldenSet,
  stale: readonly StaleQuote[],
  options: { allowStaleGolden?: boolean },
): void {
  if (stale.length === 0 || options.allowStaleGolden === true) return;
  throw new GrooveError(
    'GOLDEN_STALE',
    `golden set "${golden.path}": ${stale.length} quote(s) no longer occur in their document, so those entries could never be found and would read as retrieval misses: ${listed(stale)}`,
    {
      hint: 'fix or drop the quotes (`groove eval golden quote` re-anchors heading entries from the index); --allow-stale-golden measures anyway',
    },
  );
}

/** The note a run measured anyway prints. */
export function staleQuoteNotes(stale: readonly StaleQuote[]): string[] {
  if (stale.length === 0) return [];
  return [
    `${stale.length} golden quote(s) no longer occur in their document and count as misses (--allow-stale-golden): ${listed(stale)}`,
  ];
}
