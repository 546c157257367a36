// Pure renderers for `groove eval golden quote`: how many heading entries became quote entries, where the set
// went, and each entry left as it was with why — as text, or as one JSON object.
import type { GoldenQuoteResult, UnanchoredEntry } from '../app/index.js';
import { displayPath } from '../app/index.js';

const REASONS: Record<UnanchoredEntry['reason'], string> = {
  'no-chunk': 'no indexed chunk of the document has this heading',
  'several-chunks': 'several chunks have this heading; one quote cannot stand for all of them',
  'no-unique-passage': 'every passage tried also occurs in another chunk',
  'names-kb': 'names a `kb`: re-anchor it against that knowledge base',
};

/** At most this many unanchored entries are listed in text; JSON lists them all. */
const LISTED = 20;

export function renderGoldenQuoteText(result: GoldenQuoteResult): string {
  const left = result.unanchored;
  const lines = [
    `wrote ${displayPath(result.outPath)}: ${result.anchored} of ${result.headingEntries} heading entries re-anchored by a quote (from ${displayPath(result.goldenPath)})`,
  ];
  if (left.length > 0) {
    lines.push(`  ${left.length} left as they were:`);
    for (const entry of left.slice(0, LISTED)) {
      lines.push(
        `    queries[${entry.queryIndex}].expected[${entry.entryIndex}] ${entry.path} # ${entry.heading}: ${REASONS[entry.reason]}`,
      );
    }
    if (left.length > LISTED)
      lines.push(`    … and ${left.length - LISTED} more (--format json lists them all)`);
  }
  lines.push(
    '  The new set has no sidecar: check it, then `groove eval golden stamp --golden <it>` dates it.',
  );
  return `${lines.join('\n')}\n`;
}

export function goldenQuoteToJson(result: GoldenQuoteResult): Record<string, unknown> {
  return {
    golden: result.goldenPath,
    out: result.outPath,
    heading_entries: result.headingEntries,
    anchored: result.anchored,
    unanchored: result.unanchored.map((e) => ({
      query_id: e.queryId,
      query_index: e.queryIndex,
      entry_index: e.entryIndex,
      path: e.path,
      heading: e.heading,
      reason: e.reason,
    })),
  };
}
