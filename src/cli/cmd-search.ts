// `groove search`: one-shot hybrid search from the command line. It asks a running `groove serve` for the same
// index first (local-server.ts); only when none answers does it load the index and search in-process, so the
// search modules are imported only then. Several `--kb` are searched in-process as one corpus (a server answers
// for one index only).
import { EXIT, wantsColor } from './cli-io.js';
import type { SearchFlags } from './command-options.js';
import type { RunContext } from './command-spec.js';
import { loadConfig } from './common-options.js';
import { loadSearchTargets } from './kb-configs.js';
import { answerThroughServer } from './local-server.js';
import { withOpenTargets } from './open-targets.js';
import { searchRequestFromFlags } from './search-options.js';
import { withConfiguredKnowledgeBase } from './with-knowledge-base.js';

export async function run({ flags, args, io }: RunContext<SearchFlags>): Promise<number> {
  const request = searchRequestFromFlags(args[0]!, flags);
  const text = { full: flags.full === true, color: wantsColor(io, undefined) };
  const targets = loadSearchTargets(flags, io);
  if (targets !== null) {
    const { searchAcrossOutput } = await import('./command-output.js');
    const output = await withOpenTargets(targets, (opened) =>
      searchAcrossOutput(opened, request, flags.format, text),
    );
    io.stdout.write(output.stdout);
    if (output.stderr !== '') io.stderr.write(output.stderr);
    return EXIT.ok;
  }
  const config = loadConfig(flags, io);
  const body = { request, format: flags.format, text };
  if (await answerThroughServer('search', body, config, flags, io)) return EXIT.ok;
  const { searchOutput } = await import('./command-output.js');
  return withConfiguredKnowledgeBase(config, 'read', async (kb) => {
    const output = await searchOutput(kb, request, flags.format, text);
    io.stdout.write(output.stdout);
    if (output.stderr !== '') io.stderr.write(output.stderr);
    return EXIT.ok;
  });
}
