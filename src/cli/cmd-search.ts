// `groove search`: one-shot hybrid search from the command line.
import { openKnowledgeBase, resolveSearchParams, searchResponseToJson } from '../app/index.js';
import { EXIT } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import { type CommonFlags, loadConfig } from './common-options.js';
import { renderSearchText } from './render-search.js';
import { searchRequestFromFlags } from './search-options.js';

type SearchFlags = CommonFlags & Record<string, unknown>;

export async function run({ flags, args, io }: RunContext<SearchFlags>): Promise<number> {
  const kb = openKnowledgeBase(loadConfig(flags, io));
  try {
    const request = searchRequestFromFlags(args[0]!, flags);
    const response = await kb.search(request);
    if (flags.format === 'text') {
      const { minConfidenceRatio } = resolveSearchParams(request, kb.config);
      io.stdout.write(renderSearchText(response, { minConfidenceRatio }));
    } else {
      io.stdout.write(`${JSON.stringify(searchResponseToJson(response))}\n`);
    }
    if (response.lexicalOnly && flags.format === 'json') {
      io.stderr.write('groove: lexical-only index (no embedding model): keyword matches only\n');
    }
    return EXIT.ok;
  } finally {
    await kb.close();
  }
}
