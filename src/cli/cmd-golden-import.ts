// `groove eval golden import --qrels F --queries F [--out FILE]`: a golden set from TREC/BEIR-style files.
import { expandPath } from '../config/resolve-config.js';
import { GrooveError } from '../errors.js';
import { EXIT } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import { shadowingGolden } from './golden-shadow.js';
import type { GoldenImportFlags } from './measure-options.js';
import { shadowedGoldenNote } from './render-golden.js';
import { withKnowledgeBase } from './with-knowledge-base.js';

export async function run({ flags, io }: RunContext<GoldenImportFlags>): Promise<number> {
  const { qrels, queries } = flags;
  if (qrels === undefined || queries === undefined) {
    throw new GrooveError('INVALID_ARGUMENT', 'golden import needs both --qrels and --queries', {
      hint: 'e.g. groove eval golden import --qrels qrels/test.tsv --queries queries.jsonl --out golden.yml',
    });
  }
  return withKnowledgeBase(flags, io, 'write', async (kb, config) => {
    const result = kb.importGolden({
      qrels: expandPath(qrels, io.cwd),
      queries: expandPath(queries, io.cwd),
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
  });
}
