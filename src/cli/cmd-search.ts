// `groove search`: one-shot hybrid search from the command line.
import { Command, Option } from 'commander';
import { openKnowledgeBase, searchResponseToJson } from '../app/index.js';
import { GrooveError } from '../errors.js';
import { type CliIo, EXIT } from './cli-io.js';
import { addKbOptions, addModelOptions, type CommonFlags, loadConfig } from './common-options.js';
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

function parseNumber(flag: string) {
  return (value: string): number => {
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number)) {
      throw new GrooveError('INVALID_ARGUMENT', `${flag} "${value}" is not a finite number`);
    }
    return number;
  };
}

const collect = (value: string, previous: string[] = []) => [...previous, value];
const splitList = (value: string | undefined) =>
  value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function searchCommand(io: CliIo, setExit: (code: number) => void): Command {
  const command = new Command('search')
    .description('hybrid search of an indexed KB (word-level BM25 + vectors, fused by RRF)')
    .argument('<query>', 'what to look for; "quoted phrase", -exclude and -"excluded phrase" are understood')
    .option('--limit <n>', 'results to return (1-1000, default 5)', parseNumber('--limit'))
    .option('--category <name>', 'only documents whose first path segment is this')
    .option('--topic <name>', 'only documents with this topic (frontmatter topic or second path segment)')
    .option('--path-glob <glob>', 'only paths matching the glob; repeatable; prefix ! to exclude', collect)
    .option('--tag-any <a,b>', 'documents with any of these tags')
    .option('--tag-all <a,b>', 'documents with all of these tags')
    .option('--date-from <YYYY-MM-DD>', 'documents dated on or after')
    .option('--date-to <YYYY-MM-DD>', 'documents dated on or before')
    .option(
      '--min-quality <0..1>',
      'hide chunks below this quality score (default 0.3)',
      parseNumber('--min-quality'),
    )
    .option('--include-low-quality', 'do not hide low-quality chunks')
    .option(
      '--min-confidence-ratio <r>',
      'low_confidence when top1/mean < r (default 1.5; 0 disables)',
      parseNumber('--min-confidence-ratio'),
    )
    .option('--reranker <id>', 'cross-encoder to rerank with (bge-reranker-base, bge-reranker-v2-m3) or none')
    .option('--rerank', 'rerank with the configured cross-encoder')
    .option('--no-rerank', 'skip the reranker even when rerank_by_default is on')
    .option('--mmr', 'diversify results with maximal marginal relevance')
    .option('--no-mmr', 'turn MMR off even when [search.mmr] enables it')
    .option(
      '--mmr-lambda <0..1>',
      'MMR relevance/diversity trade-off (default 0.7)',
      parseNumber('--mmr-lambda'),
    )
    .option(
      '--mmr-same-doc-penalty <0..1>',
      'MMR penalty for a second chunk of one document',
      parseNumber('--mmr-same-doc-penalty'),
    )
    .option('--parent-retriever', 'expand short hits to their document or neighbours')
    .option('--no-parent-retriever', 'turn the parent retriever off')
    .option('--explain', 'add per-hit ranks and scores from each leg')
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
      const response = await kb.search({
        query,
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
      setExit(EXIT.ok);
    } finally {
      await kb.close();
    }
  });
}
