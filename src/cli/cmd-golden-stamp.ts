// `groove eval golden stamp`: date a golden set against the index as it is now (the sidecar eval's age and
// drift checks read).
import { openKnowledgeBase } from '../app/index.js';
import { expandPath } from '../config/resolve-config.js';
import { EXIT } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import { type CommonFlags, loadConfig } from './common-options.js';
import { goldenStampToJson, renderGoldenStampText } from './render-golden.js';

interface StampFlags extends CommonFlags {
  golden?: string;
}

export async function run({ flags, io }: RunContext<StampFlags>): Promise<number> {
  const kb = openKnowledgeBase(loadConfig(flags, io));
  try {
    const result = await kb.stampGolden({
      golden: flags.golden === undefined ? undefined : expandPath(flags.golden, io.cwd),
    });
    io.stdout.write(
      flags.format === 'json'
        ? `${JSON.stringify(goldenStampToJson(result), null, 2)}\n`
        : renderGoldenStampText(result),
    );
    return EXIT.ok;
  } finally {
    await kb.close();
  }
}
