// What `groove search` and `groove status` print, as text, from an open knowledge base: one function per command
// used both in-process and by `groove serve`'s local socket, so the two answers are the same bytes.
import {
  type KnowledgeBase,
  resolveSearchParams,
  searchResponseToJson,
  statusReportToJson,
} from '../app/index.js';
import type { SearchRequest } from '../config/search-params.js';
import { renderStatus } from './render-index.js';
import { renderSearchText, type SearchTextOptions } from './render-search.js';

export interface CommandOutput {
  stdout: string;
  stderr: string;
}

/** `groove search`'s output for a request and --format (`text`: --full, and colour on a terminal). */
export async function searchOutput(
  kb: KnowledgeBase,
  request: SearchRequest,
  format: string | undefined,
  text: Omit<SearchTextOptions, 'minConfidenceRatio' | 'fold'> = {},
): Promise<CommandOutput> {
  const response = await kb.search(request);
  if (format === 'text') {
    const { minConfidenceRatio, fold } = resolveSearchParams(request, kb.config);
    return { stdout: renderSearchText(response, { ...text, minConfidenceRatio, fold }), stderr: '' };
  }
  const stderr =
    response.lexicalOnly && format === 'json'
      ? 'groove: lexical-only index (no embedding model): keyword matches only\n'
      : '';
  return { stdout: `${JSON.stringify(searchResponseToJson(response))}\n`, stderr };
}

/** `groove status`'s output for --format. */
export async function statusOutput(kb: KnowledgeBase, format: string | undefined): Promise<CommandOutput> {
  const report = await kb.describe();
  const stdout = format === 'json' ? `${JSON.stringify(statusReportToJson(report))}\n` : renderStatus(report);
  return { stdout, stderr: '' };
}
