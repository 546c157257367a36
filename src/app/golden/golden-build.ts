// Making golden sets: `groove eval golden build --from-feedback` turns recorded agent judgments into a golden
// YAML through the four filters, and `groove eval golden stamp` dates a hand-written one. Both write the
// sidecar that lets eval refuse the set once it is too old for the corpus it measures.
import { stringify as stringifyYaml } from 'yaml';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { GrooveError } from '../../errors.js';
import { formatRunTimestamp } from '../../measure/eval-run.js';
import { filterFeedback, type GoldenDraft } from '../../measure/feedback-filters.js';
import type { CorpusCounts, GoldenMeta } from '../../measure/golden-freshness.js';
import type { FeedbackServe } from '../../types.js';
import {
  checkGoldenText,
  loadGoldenFile,
  MAX_GOLDEN_BYTES,
  type ReadCheckedFile,
  resolveGoldenPath,
} from './golden-file.js';
import { formatGoldenMeta, goldenMetaPathFor, loadGoldenMeta } from './golden-meta.js';

export type { FeedbackFilterName, FilterStep, GoldenDraft } from '../../measure/feedback-filters.js';

export interface GoldenBuildOptions {
  /** `--out`, already absolute; default the golden path eval reads. */
  out?: string;
}

export interface GoldenPorts {
  readFile: ReadCheckedFile;
  /** Atomic write (temp file + rename). */
  write(filePath: string, text: string): void;
  /** Documents and chunks in the index now. */
  counts(): CorpusCounts;
  now(): Date;
}

export interface GoldenBuildPorts extends GoldenPorts {
  readServes(): FeedbackServe[];
  isIndexed(path: string, heading: string | null): boolean;
}

export interface GoldenBuildResult {
  outPath: string;
  metaPath: string;
  draft: GoldenDraft;
  meta: GoldenMeta;
  /** False when no query survived the filters: nothing was written. */
  written: boolean;
}

export interface GoldenStampResult {
  goldenPath: string;
  metaPath: string;
  meta: GoldenMeta;
  queries: number;
}

/**
 * Build a golden set from the feedback store. The default output is the golden file eval reads; a file there
 * that was not built from feedback (a hand-written set) is never overwritten without an explicit --out.
 */
export function buildGoldenFromFeedback(
  options: GoldenBuildOptions,
  context: { config: ResolvedConfig; kbPath: string; ports: GoldenBuildPorts },
): GoldenBuildResult {
  const { config, kbPath, ports } = context;
  const outPath = options.out ?? resolveGoldenPath({ configured: config.eval.golden, kbPath });
  const metaPath = goldenMetaPathFor(outPath);
  if (options.out === undefined) refuseHandWritten(outPath, ports.readFile);
  const draft = filterFeedback(ports.readServes(), (path, heading) => ports.isIndexed(path, heading));
  const counts = ports.counts();
  const now = ports.now();
  const meta: GoldenMeta = {
    created: formatRunTimestamp(now),
    corpusDocuments: counts.documents,
    corpusChunks: counts.chunks,
    source: 'feedback',
  };
  if (draft.queries.length === 0) return { outPath, metaPath, draft, meta, written: false };
  const text = formatGoldenYaml(draft, meta);
  // What eval will parse must parse: a failure here is a bug, not a user error.
  checkGoldenText(text, outPath, {
    what: 'the built golden set',
    hint: 'eval cannot read a larger set; prune old feedback or split the knowledge base',
  });
  ports.write(outPath, text);
  ports.write(metaPath, formatGoldenMeta(meta));
  return { outPath, metaPath, draft, meta, written: true };
}

/** Date an existing golden set against the index as it is now (after re-checking it by hand). */
export function stampGolden(
  options: { golden?: string },
  context: { config: ResolvedConfig; kbPath: string; ports: GoldenPorts },
): GoldenStampResult {
  const { config, kbPath, ports } = context;
  const goldenPath = resolveGoldenPath({ flag: options.golden, configured: config.eval.golden, kbPath });
  const golden = loadGoldenFile(goldenPath, { read: ports.readFile, kbPath });
  const counts = ports.counts();
  const previous = loadGoldenMeta(goldenPath, { read: ports.readFile });
  const meta: GoldenMeta = {
    created: formatRunTimestamp(ports.now()),
    corpusDocuments: counts.documents,
    corpusChunks: counts.chunks,
    // A built set stays a built set when re-stamped; anything else is a stamped hand-written set.
    source: previous?.source ?? 'stamp',
  };
  const metaPath = goldenMetaPathFor(goldenPath);
  ports.write(metaPath, formatGoldenMeta(meta));
  return { goldenPath, metaPath, meta, queries: golden.queries.length };
}

function refuseHandWritten(outPath: string, read: ReadCheckedFile): void {
  const existing = read(outPath, { maxBytes: MAX_GOLDEN_BYTES });
  if (!existing.ok && existing.reason === 'vanished') return;
  const meta = existing.ok ? loadGoldenMeta(outPath, { read }) : null;
  if (meta?.source === 'feedback') return;
  throw new GrooveError(
    'FILE_REFUSED',
    `refusing to overwrite the golden file "${outPath}": it was not built from feedback (${existing.ok ? 'no sidecar says so' : existing.detail})`,
    { hint: 'pass --out PATH to write the built set elsewhere (or to overwrite this file on purpose)' },
  );
}

/** The golden YAML of a built set: a header saying where it came from, then one entry per surviving task. */
export function formatGoldenYaml(draft: GoldenDraft, meta: GoldenMeta): string {
  const queries = draft.queries.map((q) => ({
    id: q.id,
    query: q.query,
    expected: q.expected.map((e) =>
      e.heading === null ? { path: e.path } : { path: e.path, heading: e.heading },
    ),
  }));
  const header = [
    `# Built by \`groove eval golden build --from-feedback\` at ${meta.created} from ${draft.input.queries} recorded`,
    `# serves (${draft.input.tasks} tasks). Only items agents judged \`helped\` are listed; an item never served has`,
    '# no label, so a better document that was never served cannot be credited. Compare rankings with it;',
    '# do not read it as an absolute quality number.',
  ];
  return `${header.join('\n')}\n${stringifyYaml({ queries }, { lineWidth: 0 })}`;
}
