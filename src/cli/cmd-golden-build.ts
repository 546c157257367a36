// `groove eval golden build --from-feedback`: make a golden set (and its sidecar) from recorded agent judgments.
import { expandPath } from '../config/resolve-config.js';
import { GrooveError } from '../errors.js';
import { EXIT } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import { shadowingGolden } from './golden-shadow.js';
import type { GoldenBuildFlags } from './measure-options.js';
import { goldenBuildToJson, renderGoldenBuildText, shadowedGoldenNote } from './render-golden.js';
import { withKnowledgeBase } from './with-knowledge-base.js';

export async function run({ flags, io }: RunContext<GoldenBuildFlags>): Promise<number> {
  if (!flags.fromFeedback) {
    throw new GrooveError('INVALID_ARGUMENT', 'golden build needs a source', {
      hint: 'pass --from-feedback (judgments recorded through the MCP tool record_feedback)',
    });
  }
  return withKnowledgeBase(flags, io, 'write', async (kb, config) => {
    const result = await kb.buildGolden({
      out: flags.out === undefined ? undefined : expandPath(flags.out, io.cwd),
    });
    io.stdout.write(
      flags.format === 'json'
        ? `${JSON.stringify(goldenBuildToJson(result), null, 2)}\n`
        : renderGoldenBuildText(result),
    );
    if (!result.written) {
      io.stderr.write(
        'groove eval golden build: no query survived the filters, nothing written (record more feedback with at least one `helped` item per task)\n',
      );
    }
    const shadow = result.written ? shadowingGolden(config.kbPath, result.outPath, flags.out) : null;
    if (shadow !== null)
      io.stderr.write(shadowedGoldenNote('groove eval golden build', result.outPath, shadow));
    return result.written ? EXIT.ok : EXIT.failure;
  });
}
