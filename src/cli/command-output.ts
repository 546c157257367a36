// What `groove search` and `groove status` print, as text, from an open knowledge base: one function per command
// used both in-process and by `groove serve`'s local socket, so the two answers are the same bytes.
import {
  type KnowledgeBase,
  type SearchResponse,
  searchKnowledgeBases,
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
  text: SearchTextOptions = {},
): Promise<CommandOutput> {
  return responseOutput(await kb.search(request), format, text);
}

/**
 * `groove search --kb a --kb b`'s output: the KBs searched as one corpus (searchKnowledgeBases), each hit naming
 * its KB; the first KB's settings apply, as they do to the ranking.
 */
export async function searchAcrossOutput(
  targets: readonly { kb: KnowledgeBase; name: string }[],
  request: SearchRequest,
  format: string | undefined,
  text: SearchTextOptions = {},
): Promise<CommandOutput> {
  return responseOutput(await searchKnowledgeBases(targets, request), format, text);
}

function responseOutput(
  response: SearchResponse,
  format: string | undefined,
  text: SearchTextOptions,
): CommandOutput {
  if (format === 'text') return { stdout: renderSearchText(response, text), stderr: '' };
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

/**
 * `groove status --kb a --kb b`: text, one block per KB headed by its name; json, an array of each KB's status
 * object with its `kb` name first, in the order the KBs were named.
 */
export async function statusAcrossOutput(
  targets: readonly { kb: KnowledgeBase; name: string }[],
  format: string | undefined,
): Promise<CommandOutput> {
  const reports = [];
  for (const { kb, name } of targets) reports.push({ name, report: await kb.describe() });
  const stdout =
    format === 'json'
      ? `${JSON.stringify(reports.map(({ name, report }) => ({ kb: name, ...statusReportToJson(report) })))}\n`
      : reports.map(({ name, report }) => `[${name}]\n${renderStatus(report)}`).join('\n');
  return { stdout, stderr: '' };
}
