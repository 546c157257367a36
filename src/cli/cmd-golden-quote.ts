// `groove eval golden quote [--golden F] [--out F] [--keep-heading]`: the golden set's heading entries rewritten
// into quote entries chosen from the index as it is now.
import { quoteGolden } from '../app/index.js';
import { expandPath } from '../config/resolve-config.js';
import { EXIT } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import { shadowingGolden } from './golden-shadow.js';
import type { GoldenQuoteFlags } from './measure-options.js';
import { shadowedGoldenNote } from './render-golden.js';
import { goldenQuoteToJson, renderGoldenQuoteText } from './render-golden-quote.js';
import { withKnowledgeBase } from './with-knowledge-base.js';

export async function run({ flags, io }: RunContext<GoldenQuoteFlags>): Promise<number> {
  return withKnowledgeBase(flags, io, 'read', async (kb, config) => {
    const result = await quoteGolden(kb, {
      golden: flags.golden === undefined ? undefined : expandPath(flags.golden, io.cwd),
      out: flags.out === undefined ? undefined : expandPath(flags.out, io.cwd),
      keepHeading: flags.keepHeading === true,
    });
    io.stdout.write(
      flags.format === 'json'
        ? `${JSON.stringify(goldenQuoteToJson(result), null, 2)}\n`
        : renderGoldenQuoteText(result),
    );
    const shadow = shadowingGolden(config.kbPath, result.outPath, flags.out);
    if (shadow !== null)
      io.stderr.write(shadowedGoldenNote('groove eval golden quote', result.outPath, shadow));
    return EXIT.ok;
  });
}
