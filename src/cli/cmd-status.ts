// `groove status`: what the index holds and how it was built — through a running `groove serve` for the same
// index when one answers (local-server.ts), else in-process. Several `--kb` are read in-process, one block (text)
// or one array element (json) per KB.
import { EXIT } from './cli-io.js';
import type { StatusFlags } from './command-options.js';
import type { RunContext } from './command-spec.js';
import { loadConfig } from './common-options.js';
import { loadSearchTargets } from './kb-configs.js';
import { answerThroughServer } from './local-server.js';
import { withOpenTargets } from './open-targets.js';
import { withConfiguredKnowledgeBase } from './with-knowledge-base.js';

export async function run({ flags, io }: RunContext<StatusFlags>): Promise<number> {
  const targets = loadSearchTargets(flags, io);
  if (targets !== null) {
    const { statusAcrossOutput } = await import('./command-output.js');
    const output = await withOpenTargets(targets, (opened) => statusAcrossOutput(opened, flags.format));
    io.stdout.write(output.stdout);
    return EXIT.ok;
  }
  const config = loadConfig(flags, io);
  if (await answerThroughServer('status', { format: flags.format }, config, flags, io)) return EXIT.ok;
  const { statusOutput } = await import('./command-output.js');
  const output = await withConfiguredKnowledgeBase(config, 'read', (kb) => statusOutput(kb, flags.format));
  io.stdout.write(output.stdout);
  return EXIT.ok;
}
