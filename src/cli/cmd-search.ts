// `groove search`: one-shot hybrid search from the command line.
import { openKnowledgeBase, searchResponseToJson } from '../app/index.js';
import { EXIT } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import { type CommonFlags, loadConfig } from './common-options.js';
import { renderSearchText } from './render-search.js';

interface SearchFlags extends CommonFlags {
  limit?: number;
  category?: string;
  topic?: string;
  pathGlob?: string[];
  tagAny?: string;
  tagAll?: string;
  dateFrom?: string;
  dateTo?: string;
  minQuality?: number;
  includeLowQuality?: boolean;
  minConfidenceRatio?: number;
  rerank?: boolean;
  mmr?: boolean;
  mmrLambda?: number;
  mmrSameDocPenalty?: number;
  parentRetriever?: boolean;
  explain?: boolean;
}

const splitList = (value: string | undefined) =>
  value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export async function run({ flags, args, io }: RunContext<SearchFlags>): Promise<number> {
  const kb = openKnowledgeBase(loadConfig(flags, io));
  try {
    const response = await kb.search({
      query: args[0]!,
      limit: flags.limit,
      category: flags.category,
      topic: flags.topic,
      pathGlobs: flags.pathGlob,
      tagsAny: splitList(flags.tagAny),
      tagsAll: splitList(flags.tagAll),
      dateFrom: flags.dateFrom,
      dateTo: flags.dateTo,
      minQuality: flags.minQuality,
      includeLowQuality: flags.includeLowQuality,
      minConfidenceRatio: flags.minConfidenceRatio,
      rerank: flags.rerank,
      mmr: flags.mmr,
      mmrLambda: flags.mmrLambda,
      mmrSameDocPenalty: flags.mmrSameDocPenalty,
      parentRetriever: flags.parentRetriever,
      explain: flags.explain,
    });
    if (flags.format === 'text') {
      const ratio = flags.minConfidenceRatio ?? kb.config.search.minConfidenceRatio;
      io.stdout.write(renderSearchText(response, { minConfidenceRatio: ratio }));
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
