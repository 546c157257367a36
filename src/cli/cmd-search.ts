// `groove search`: one-shot hybrid search from the command line.
import { Command, Option } from 'commander';
import { openKnowledgeBase, resolveSearchParams, searchResponseToJson } from '../app/index.js';
import { type CliIo, EXIT } from './cli-io.js';
import { addKbOptions, addModelOptions, type CommonFlags, loadConfig } from './common-options.js';
import { renderSearchText } from './render-search.js';
import { addSearchParamOptions, searchRequestFromFlags } from './search-options.js';

type SearchFlags = CommonFlags & Record<string, unknown>;

export function searchCommand(io: CliIo, setExit: (code: number) => void): Command {
  const command = new Command('search').description(
    'hybrid search of an indexed KB (word-level BM25 + vectors, fused by RRF)',
  );
  addSearchParamOptions(command)
    .option('--reranker <id>', 'cross-encoder to rerank with (bge-reranker-base, bge-reranker-v2-m3) or none')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('json'))
    .addHelpText(
      'after',
      '\nExamples:\n  groove search "reset password" --kb-path ./notes --format text\n  groove search "backup -postgres" --kb-path ./notes --limit 10\n  groove search "売上" --kb-path ./notes --tag-any 財務 --explain',
    );
  addKbOptions(command);
  addModelOptions(command);
  return command.action(async (query: string, flags: SearchFlags) => {
    const kb = openKnowledgeBase(loadConfig(flags, io));
    try {
      const request = searchRequestFromFlags(query, flags);
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
      setExit(EXIT.ok);
    } finally {
      await kb.close();
    }
  });
}
