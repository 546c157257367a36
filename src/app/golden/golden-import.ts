// `groove eval golden import --qrels F --queries F [--out FILE]`: a golden set from TREC/BEIR-style files
// (formats in measure/trec.ts). Both inputs go through the same checked, bounded read as every golden file, and
// the YAML written must parse as eval will parse it. No sidecar is written: `groove eval golden stamp` dates
// the set once it has been checked against this knowledge base.
import { stringify as stringifyYaml } from 'yaml';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { GrooveError } from '../../errors.js';
import { goldenFromTrec, parseTrecQrels, parseTrecQueries } from '../../measure/trec.js';
import { checkGoldenText, MAX_GOLDEN_BYTES, type ReadCheckedFile, resolveGoldenPath } from './golden-file.js';

/** Each input is at most 16 MiB: the golden file it becomes is at most 1 MiB anyway. */
export const MAX_TREC_INPUT_BYTES = 16 * 1024 * 1024;

export interface GoldenImportOptions {
  /** Absolute paths. */
  qrels: string;
  queries: string;
  /** `--out`, absolute; default the golden path eval reads (never over an existing file). */
  out?: string;
}

export interface GoldenImportResult {
  outPath: string;
  /** Queries in the queries file, and how many had a relevant judgment (the golden queries). */
  queriesRead: number;
  queries: number;
  /** Relevant (query, docid) pairs written as expected entries. */
  entries: number;
  /** Qrels lines read (relevance ≤ 0 included). */
  qrelsLines: number;
}

export function importGolden(
  options: GoldenImportOptions,
  context: {
    config: ResolvedConfig;
    kbPath: string;
    ports: { readFile: ReadCheckedFile; write(filePath: string, text: string): void };
  },
): GoldenImportResult {
  const { config, kbPath, ports } = context;
  const outPath = options.out ?? resolveGoldenPath({ configured: config.eval.golden, kbPath });
  if (options.out === undefined) {
    const existing = ports.readFile(outPath, { maxBytes: MAX_GOLDEN_BYTES });
    if (existing.ok || existing.reason !== 'vanished') {
      throw new GrooveError('FILE_REFUSED', `refusing to overwrite the golden file "${outPath}"`, {
        hint: 'pass --out PATH to write the imported set elsewhere (or to overwrite this file on purpose)',
      });
    }
  }
  const queries = parseTrecQueries(readText(options.queries, ports.readFile), options.queries);
  const qrels = parseTrecQrels(readText(options.qrels, ports.readFile), options.qrels);
  const golden = goldenFromTrec(queries, qrels, { queries: options.queries, qrels: options.qrels });
  if (golden.length === 0) {
    throw new GrooveError(
      'GOLDEN_INVALID',
      `no query in "${options.queries}" has a relevant judgment in "${options.qrels}"`,
      {
        hint: 'relevance above 0 counts; check that the query ids of both files match',
      },
    );
  }
  const text = formatImportedYaml(golden, options);
  // Whatever eval would refuse (too big, an over-long or exclusion-only query) is refused now, naming the output.
  checkGoldenText(text, outPath, {
    what: 'the imported golden set',
    hint: 'import a subset of the queries (eval cannot read a larger set)',
  });
  ports.write(outPath, text);
  return {
    outPath,
    queriesRead: queries.length,
    queries: golden.length,
    entries: golden.reduce((n, q) => n + q.expected.length, 0),
    qrelsLines: qrels.length,
  };
}

function readText(filePath: string, read: ReadCheckedFile): string {
  const result = read(filePath, { maxBytes: MAX_TREC_INPUT_BYTES });
  if (!result.ok) {
    if (result.reason === 'vanished')
      throw new GrooveError('GOLDEN_NOT_FOUND', `no file at "${filePath}"`, { hint: 'check the path' });
    throw new GrooveError('FILE_REFUSED', `refusing to read "${filePath}": ${result.detail}`, {
      hint:
        result.reason === 'too-large'
          ? 'an import input is at most 16 MiB; import a subset'
          : 'use a regular file of its own (no symlink, no hard link)',
    });
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(result.bytes);
  } catch {
    throw new GrooveError('GOLDEN_INVALID', `failed to import "${filePath}": the file is not valid UTF-8`, {
      hint: 'TREC and BEIR files are UTF-8 text',
    });
  }
}

function formatImportedYaml(golden: ReturnType<typeof goldenFromTrec>, options: GoldenImportOptions): string {
  const queries = golden.map((q) => ({
    id: q.id,
    query: q.query,
    expected: q.expected.map((e) =>
      e.heading === null ? { path: e.path } : { path: e.path, heading: e.heading },
    ),
  }));
  const header = [
    '# Imported by `groove eval golden import` from',
    `#   queries: ${options.queries.replace(/\s/g, ' ')}`,
    `#   qrels:   ${options.qrels.replace(/\s/g, ' ')}`,
    '# A docid `path#heading` became that heading entry, a docid without `#` a document-level entry.',
  ];
  return `${header.join('\n')}\n${stringifyYaml({ queries }, { lineWidth: 0 })}`;
}
