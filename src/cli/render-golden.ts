// Pure renderers for `groove eval golden build` and `golden stamp`: what each filter removed, what was kept,
// and where the set and its sidecar went — as text, or as one JSON object.

import type { FeedbackFilterName, GoldenBuildResult, GoldenStampResult } from '../app/index.js';
import { displayPath } from '../app/index.js';

const FILTER_LABELS: Record<FeedbackFilterName, string> = {
  'always-served': 'always-served items excluded',
  'no-positive': 'queries without a positive',
  'positive-not-indexed': 'positives no longer indexed',
  'repeated-task': 'repeated tasks counted once',
};

export function renderGoldenBuildText(result: GoldenBuildResult): string {
  const { draft, meta } = result;
  const expected = draft.queries.reduce((sum, q) => sum + q.expected.length, 0);
  const lines = [
    `groove eval golden build — ${draft.input.queries} recorded serve(s) of ${draft.input.tasks} task(s), ${draft.input.items} judged item(s)`,
    ...draft.steps.map(
      (step) =>
        `  ${FILTER_LABELS[step.filter].padEnd(30)} -${String(step.queriesRemoved).padEnd(5)} queries  -${step.itemsRemoved} items`,
    ),
    `  kept: ${draft.queries.length} queries, ${expected} expected entries (${draft.negativesKept} noise/wrong judgments are not listed: the golden format is positives only)`,
  ];
  if (result.written) {
    lines.push(`wrote ${displayPath(result.outPath)}`);
    lines.push(
      `  and ${displayPath(result.metaPath)} (created ${meta.created}; corpus ${meta.corpusDocuments} docs / ${meta.corpusChunks} chunks)`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export function goldenBuildToJson(result: GoldenBuildResult): Record<string, unknown> {
  const { draft } = result;
  return {
    out: result.outPath,
    meta_path: result.metaPath,
    written: result.written,
    input: draft.input,
    filters: draft.steps.map((s) => ({
      filter: s.filter,
      queries_removed: s.queriesRemoved,
      items_removed: s.itemsRemoved,
    })),
    kept: {
      queries: draft.queries.length,
      expected_entries: draft.queries.reduce((sum, q) => sum + q.expected.length, 0),
      negatives: draft.negativesKept,
    },
    meta: metaToJson(result.meta),
  };
}

export function renderGoldenStampText(result: GoldenStampResult): string {
  const { meta } = result;
  return `stamped ${displayPath(result.goldenPath)} (${result.queries} queries)\n  wrote ${displayPath(result.metaPath)}: created ${meta.created}, corpus ${meta.corpusDocuments} docs / ${meta.corpusChunks} chunks, source ${meta.source}\n`;
}

export function goldenStampToJson(result: GoldenStampResult): Record<string, unknown> {
  return {
    golden: result.goldenPath,
    meta_path: result.metaPath,
    queries: result.queries,
    meta: metaToJson(result.meta),
  };
}

function metaToJson(meta: GoldenBuildResult['meta']): Record<string, unknown> {
  return {
    created: meta.created,
    corpus_documents: meta.corpusDocuments,
    corpus_chunks: meta.corpusChunks,
    source: meta.source,
  };
}

/**
 * The note after a golden set written to groove's data folder by default while the KB holds its own
 * `.groove-eval.yml`: eval keeps reading that one, so say how to measure the set just written.
 */
export function shadowedGoldenNote(command: string, written: string, kbGolden: string): string {
  return `${command}: note: groove eval reads ${displayPath(kbGolden)} first; measure the set just written with --golden ${displayPath(written)}\n`;
}
