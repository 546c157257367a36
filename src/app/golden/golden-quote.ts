// `groove eval golden quote`: rewrite the heading entries of a golden set into quote entries, each quote a
// passage of the entry's chunk in the index as it is now that no other chunk contains (measure/quote-anchor.ts).
// The file is edited in place as YAML (comments, ids and tags kept) and written where golden build and import
// write, never over an existing file unless --out names it; what eval could not read is refused first.
import { isMap, parseDocument } from 'yaml';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { GrooveError } from '../../errors.js';
import { type ExpectedEntry, normalizeHeading } from '../../measure/eval-metrics.js';
import { createUniquenessCount, quoteCandidates } from '../../measure/quote-anchor.js';
import {
  checkGoldenText,
  type GoldenSet,
  loadGoldenFile,
  MAX_GOLDEN_BYTES,
  type ReadCheckedFile,
  resolveGoldenPath,
} from './golden-file.js';

export interface GoldenQuoteOptions {
  /** `--golden`, absolute; default the set eval reads. */
  golden?: string;
  /** `--out`, absolute; default where golden build and import write (never over an existing file). */
  out?: string;
  /** Keep `heading` beside the new `quote` (a hit then needs both). */
  keepHeading?: boolean;
}

/** Why a heading entry was left as it was. */
export type UnanchoredReason = 'no-chunk' | 'several-chunks' | 'no-unique-passage' | 'names-kb';

export interface UnanchoredEntry {
  queryId: string;
  queryIndex: number;
  entryIndex: number;
  path: string;
  heading: string;
  reason: UnanchoredReason;
}

export interface GoldenQuoteResult {
  goldenPath: string;
  outPath: string;
  /** Entries naming a heading and no quote: the ones a quote could replace. */
  headingEntries: number;
  anchored: number;
  unanchored: UnanchoredEntry[];
}

/** What the choice reads of one read snapshot of the index: its chunks, in one ordered pass per call. */
export interface ChunkPasses {
  readCorpus(visit: (row: { path: string; heading: string | null; content: string }) => void): unknown;
}

export interface GoldenQuotePorts {
  readFile: ReadCheckedFile;
  write(filePath: string, text: string): void;
  withSnapshot<T>(work: (snapshot: ChunkPasses) => Promise<T>): Promise<T>;
}

interface Target {
  queryIndex: number;
  entryIndex: number;
  entry: ExpectedEntry & { heading: string };
}

export async function quoteGoldenAnchors(
  options: GoldenQuoteOptions,
  context: { read: ResolvedConfig; write: ResolvedConfig; kbPath: string; ports: GoldenQuotePorts },
): Promise<GoldenQuoteResult> {
  const { kbPath, ports } = context;
  const goldenPath = options.golden ?? resolveGoldenPath({ configured: context.read.eval.golden, kbPath });
  const golden = loadGoldenFile(goldenPath, { read: ports.readFile, kbPath });
  const outPath = options.out ?? resolveGoldenPath({ configured: context.write.eval.golden, kbPath });
  if (options.out === undefined) refuseExisting(outPath, ports.readFile);
  const targets = headingTargets(golden);
  const quotes = await ports.withSnapshot(async (snapshot) => chooseQuotes(snapshot, targets));
  const unanchored: UnanchoredEntry[] = [];
  const document = parseDocument(readText(goldenPath, ports.readFile), { uniqueKeys: true });
  targets.forEach((target, t) => {
    const choice = quotes[t]!;
    const { queryIndex, entryIndex, entry } = target;
    if (typeof choice !== 'string') {
      const queryId = golden.queries[queryIndex]!.id;
      unanchored.push({
        queryId,
        queryIndex,
        entryIndex,
        path: entry.path,
        heading: entry.heading,
        reason: choice.reason,
      });
      return;
    }
    const node = document.getIn(['queries', queryIndex, 'expected', entryIndex], true);
    if (!isMap(node)) {
      throw new GrooveError(
        'GOLDEN_INVALID',
        `golden file "${goldenPath}": queries[${queryIndex}].expected[${entryIndex}] is not written out as a mapping (a YAML alias?)`,
        { hint: 'write the entry out in full to re-anchor it' },
      );
    }
    if (options.keepHeading !== true) node.delete('heading');
    node.set('quote', choice);
  });
  const text = document.toString({ lineWidth: 0 });
  checkGoldenText(text, outPath, {
    what: 'the re-anchored golden set',
    hint: 'quotes are longer than headings: split the set and re-anchor each part (--golden, --out)',
  });
  ports.write(outPath, text);
  return {
    goldenPath,
    outPath,
    headingEntries: targets.length,
    anchored: targets.length - unanchored.length,
    unanchored,
  };
}

/** Entries a quote could replace: a heading and no quote yet. */
function headingTargets(golden: GoldenSet): Target[] {
  return golden.queries.flatMap((q, queryIndex) =>
    q.expected.flatMap((entry, entryIndex) =>
      entry.heading !== null && entry.quote === undefined
        ? [{ queryIndex, entryIndex, entry: { ...entry, heading: entry.heading } }]
        : [],
    ),
  );
}

const keyOf = (path: string, heading: string) => `${path}\u0000${normalizeHeading(heading)}`;

/**
 * Two passes over the snapshot's chunks: the chunks each heading entry names (exactly one can be anchored),
 * then how many chunks contain each candidate passage. A quote per target, or why there is none.
 */
async function chooseQuotes(
  snapshot: ChunkPasses,
  targets: readonly Target[],
): Promise<(string | { reason: UnanchoredReason })[]> {
  const chunksByKey = new Map<string, string[]>();
  for (const t of targets) chunksByKey.set(keyOf(t.entry.path, t.entry.heading), []);
  snapshot.readCorpus((row) => {
    if (row.heading === null) return;
    chunksByKey.get(keyOf(row.path, row.heading))?.push(row.content);
  });
  const candidatesByKey = new Map<string, string[]>();
  for (const [key, chunks] of chunksByKey) {
    if (chunks.length === 1) candidatesByKey.set(key, quoteCandidates(chunks[0]!));
  }
  const count = createUniquenessCount([...candidatesByKey.values()]);
  snapshot.readCorpus((row) => count.observe(row.content));
  return targets.map((t) => {
    if (t.entry.kb !== undefined) return { reason: 'names-kb' };
    const key = keyOf(t.entry.path, t.entry.heading);
    const chunks = chunksByKey.get(key)!;
    if (chunks.length === 0) return { reason: 'no-chunk' };
    if (chunks.length > 1) return { reason: 'several-chunks' };
    return count.firstUnique(candidatesByKey.get(key)!, chunks[0]!) ?? { reason: 'no-unique-passage' };
  });
}

function refuseExisting(outPath: string, read: ReadCheckedFile): void {
  const existing = read(outPath, { maxBytes: MAX_GOLDEN_BYTES });
  if (!existing.ok && existing.reason === 'vanished') return;
  throw new GrooveError('FILE_REFUSED', `refusing to overwrite the golden file "${outPath}"`, {
    hint: 'pass --out PATH to write the re-anchored set elsewhere (or to overwrite this file on purpose)',
  });
}

/** The golden file's text, read again for editing (loadGoldenFile has already checked it). */
function readText(goldenPath: string, read: ReadCheckedFile): string {
  const result = read(goldenPath, { maxBytes: MAX_GOLDEN_BYTES });
  if (!result.ok) {
    throw new GrooveError('FILE_REFUSED', `the golden file "${goldenPath}" changed while it was read`, {
      hint: 'run the command again',
    });
  }
  return new TextDecoder('utf-8').decode(result.bytes);
}
