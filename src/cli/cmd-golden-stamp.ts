// `groove eval golden stamp`: date a golden set against the index as it is now (the sidecar eval's age and
// drift checks read).
import { expandPath } from '../config/resolve-config.js';
import { EXIT } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import type { GoldenStampFlags } from './measure-options.js';
import { goldenStampToJson, renderGoldenStampText } from './render-golden.js';
import { withKnowledgeBase } from './with-knowledge-base.js';

export async function run({ flags, io }: RunContext<GoldenStampFlags>): Promise<number> {
  return withKnowledgeBase(flags, io, 'write', async (kb) => {
    const result = await kb.stampGolden({
      golden: flags.golden === undefined ? undefined : expandPath(flags.golden, io.cwd),
    });
    io.stdout.write(
      flags.format === 'json'
        ? `${JSON.stringify(goldenStampToJson(result), null, 2)}\n`
        : renderGoldenStampText(result),
    );
    return EXIT.ok;
  });
}
