// `groove eval golden stamp`: date a golden set against the index as it is now (the sidecar eval's age and
// drift checks read).
import { expandPath } from '../config/resolve-config.js';
import { EXIT } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import type { CommonFlags } from './common-options.js';
import { goldenStampToJson, renderGoldenStampText } from './render-golden.js';
import { withKnowledgeBase } from './with-knowledge-base.js';

interface StampFlags extends CommonFlags {
  golden?: string;
}

export async function run({ flags, io }: RunContext<StampFlags>): Promise<number> {
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
