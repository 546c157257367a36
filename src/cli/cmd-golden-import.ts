// `groove eval golden import --qrels F --queries F [--out FILE]`: a golden set from TREC/BEIR-style files.
import { openKnowledgeBase } from '../app/index.js';
import { expandPath } from '../config/resolve-config.js';
import { GrooveError } from '../errors.js';
import { EXIT } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import { type CommonFlags, loadConfig } from './common-options.js';
import { shadowingGolden } from './golden-shadow.js';
import { shadowedGoldenNote } from './render-golden.js';

interface ImportFlags extends CommonFlags {
  qrels?: string;
  queries?: string;
  out?: string;
}

export async function run({ flags, io }: RunContext<ImportFlags>): Promise<number> {
  if (flags.qrels === undefined || flags.queries === undefined) {
    throw new GrooveError('INVALID_ARGUMENT', 'golden import needs both --qrels and --queries', {
      hint: 'e.g. groove eval golden import --qrels qrels/test.tsv --queries queries.jsonl --out golden.yml',
    });
  }
  const config = loadConfig(flags, io);
  const kb = openKnowledgeBase(config);
  try {
    const result = kb.importGolden({
      qrels: expandPath(flags.qrels, io.cwd),
      queries: expandPath(flags.queries, io.cwd),
      out: flags.out === undefined ? undefined : expandPath(flags.out, io.cwd),
    });
    if (flags.format === 'json') {
      io.stdout.write(
        `${JSON.stringify(
          {
            out: result.outPath,
            queries_read: result.queriesRead,
            queries: result.queries,
            entries: result.entries,
            qrels_lines: result.qrelsLines,
          },
          null,
          2,
        )}\n`,
      );
    } else {
      io.stdout.write(
        `wrote ${result.outPath}: ${result.queries} of ${result.queriesRead} queries (those with a relevant judgment), ${result.entries} expected entries from ${result.qrelsLines} qrels lines\n`,
      );
    }
    const shadow = shadowingGolden(config.kbPath, result.outPath, flags.out);
    if (shadow !== null)
      io.stderr.write(shadowedGoldenNote('groove eval golden import', result.outPath, shadow));
    return EXIT.ok;
  } finally {
    await kb.close();
  }
}
