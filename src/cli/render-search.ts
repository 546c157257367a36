// Pure text renderer for search results, for a person at a terminal (the JSON form is searchResponseToJson,
// shared with MCP): per hit its rank, title and path, the heading breadcrumb, a relevance a person can read, and
// a few lines around the best match (the whole chunk with --full).
import pc from 'picocolors';
import { describeLeg, displayLine, displayPath, legBroke, type SearchResponse } from '../app/index.js';

/** How to print (the ratio and the fold mode it names come with the response: `settings`). */
export interface SearchTextOptions {
  /** Print each hit's whole text instead of a snippet. */
  full?: boolean;
  /** Mark the matched words (a terminal). */
  color?: boolean;
}

type Hit = SearchResponse['results'][number];

/** Lines of a snippet: the line with the first match, one before and the rest after. */
const SNIPPET_LINES = 4;
/** A snippet line longer than this is cut around the match. */
const SNIPPET_LINE_CHARS = 160;

export function renderSearchText(response: SearchResponse, options: SearchTextOptions): string {
  const lines: string[] = [];
  if (response.lexicalOnly)
    lines.push('[lexical-only: no embedding model in this index; keyword matches only]');
  for (const [leg, health] of Object.entries(response.legs)) {
    // A leg the request's `legs` left out (or could not run) is named too, with why.
    if (legBroke(health) || health.reason !== undefined) lines.push(`[${leg} leg ${describeLeg(health)}]`);
  }
  const confidence = confidenceLine(response);
  if (confidence) lines.push(confidence);
  if (response.budget) lines.push(budgetLine(response.budget));
  if (response.results.length === 0) lines.push(noResultsLine(response));
  const top = response.results[0]?.score ?? 0;
  const blocks = response.results.map((hit, i) =>
    renderHit(hit, i + 1, top, response.settings.fold, options),
  );
  return `${[...lines, blocks.join('\n\n'), timingsLine(response)].filter((s) => s !== '').join('\n')}\n`;
}

/** After a blank line, `[timings_ms: lexical 0.41, …, total 3.2]`; '' when the search was not asked to time. */
function timingsLine(response: SearchResponse): string {
  if (!response.timingsMs) return '';
  const stages = Object.entries(response.timingsMs).map(([stage, ms]) => `${stage} ${ms}`);
  return `\n[timings_ms: ${stages.join(', ')}]`;
}

/**
 * The confidence, and with low_confidence what it means: the top hit holds few of the query's distinctive words.
 * The threshold is named with whether it is the built-in default or a value set for this KB (`groove tune`).
 */
function confidenceLine(response: SearchResponse): string | null {
  if (response.results.length === 0) return null;
  const value = response.confidence.toFixed(2);
  if (!response.lowConfidence) return `[confidence ${value}]`;
  const { minConfidence, minConfidenceIsDefault } = response.settings;
  const source = minConfidenceIsDefault ? 'the built-in default' : 'set for this KB';
  return `[low_confidence: confidence ${value} < min_confidence ${minConfidence} (${source}): the top hit holds few of the query's distinctive words; the knowledge base may not answer this]`;
}

function renderHit(
  hit: Hit,
  rank: number,
  topScore: number,
  fold: SearchResponse['settings']['fold'],
  options: SearchTextOptions,
): string {
  const paint = pc.createColors(options.color === true);
  // Every line is escaped whole: neither a file name nor a heading nor the text can forge a line.
  const where = hit.lineStart === null ? hit.path : `${hit.path}:${hit.lineStart}`;
  // A hit of a search across KBs names its KB before its path.
  const kb = 'kb' in hit && typeof hit.kb === 'string' ? `${paint.magenta(`[${displayLine(hit.kb)}]`)} ` : '';
  const block = [
    `${paint.bold(`${rank}. ${displayLine(hit.title)}`)}  ${kb}${paint.cyan(displayPath(where))}`,
  ];
  const crumbs = hit.breadcrumb || hit.heading;
  if (crumbs) block.push(`   § ${displayLine(crumbs)}`);
  block.push(`   ${relevanceLine(hit.score, topScore)}`);
  if (hit.tags.length > 0) block.push(`   tags: ${displayLine(hit.tags.join(', '))}`);
  if (hit.folded)
    block.push(`   +${hit.folded} lower hits of this ${fold} folded in (--fold none lists them)`);
  const from = hit.expandedFrom;
  if (from && (from.kind === 'link' || from.kind === 'co_helpful')) {
    const parent = displayPath(from.heading ? `${from.path}#${from.heading}` : from.path);
    block.push(`   pulled in by the graph hop (${from.kind}) from ${parent}`);
  }
  if (hit.explain) block.push(`   explain: ${JSON.stringify(hit.explain)}`);
  // A passage of a token budget is shown whole: it is already the extract.
  const text = options.full || hit.tokens !== undefined ? fullText(hit) : snippetOf(hit);
  for (const line of text) block.push(`   │ ${mark(line, paint)}`);
  return block.join('\n');
}

/**
 * The score as a person reads it: the hit's share of the first hit's score (the scores of one search compare
 * only with each other), then the score itself and what it is.
 */
function relevanceLine(score: number, topScore: number): string {
  const share = topScore > 0 ? Math.round((score / topScore) * 100) : 0;
  return `relevance ${share}% of the top hit (score ${score.toFixed(4)}: fused rank score, higher is better)`;
}

interface TextLine {
  text: string;
  /** Matched ranges within `text`. */
  spans: { start: number; end: number }[];
}

/** Every line of the hit's text with the match spans that fall in it. */
function linesOf(hit: Hit): TextLine[] {
  const lines: TextLine[] = [];
  let offset = 0;
  for (const text of hit.content.split('\n')) {
    const end = offset + text.length;
    const spans = hit.matchSpans
      .filter((s) => s.start < end && s.end > offset)
      .map((s) => ({ start: Math.max(0, s.start - offset), end: Math.min(text.length, s.end - offset) }));
    lines.push({ text, spans });
    offset = end + 1;
  }
  return lines;
}

function fullText(hit: Hit): TextLine[] {
  const lines = linesOf(hit);
  while (lines.length > 0 && lines[lines.length - 1]!.text.trim() === '') lines.pop();
  return lines.map((line) => escapeLine(line));
}

/**
 * A few non-blank lines around the first line with a match (the first lines when nothing matched, as for a hit
 * the vector leg found), each cut to a readable width around its match.
 */
function snippetOf(hit: Hit): TextLine[] {
  const lines = linesOf(hit).filter((line) => line.text.trim() !== '');
  const first = Math.max(
    0,
    lines.findIndex((line) => line.spans.length > 0),
  );
  const start = Math.max(0, first - 1);
  const picked = lines.slice(start, start + SNIPPET_LINES).map((line) => escapeLine(cutLine(line)));
  if (start + SNIPPET_LINES < lines.length) picked.push({ text: '…', spans: [] });
  return picked;
}

/** A line longer than SNIPPET_LINE_CHARS, cut to a window that starts a little before its first match. */
function cutLine(line: TextLine): TextLine {
  if (line.text.length <= SNIPPET_LINE_CHARS) return line;
  const from = Math.max(0, (line.spans[0]?.start ?? 0) - 40);
  const to = from + SNIPPET_LINE_CHARS;
  const prefix = from > 0 ? '…' : '';
  const shift = prefix.length - from;
  const spans = line.spans
    .filter((s) => s.start >= from && s.end <= to)
    .map((s) => ({ start: s.start + shift, end: s.end + shift }));
  return { text: `${prefix}${line.text.slice(from, to)}…`, spans };
}

/** The line with control characters shown as escapes; spans are kept only where nothing was escaped. */
function escapeLine(line: TextLine): TextLine {
  // A tab prints as one space and a CRLF file's \r is dropped, so the match spans keep their places.
  const text = displayLine(line.text.replace(/\r$/, '').replace(/\t/g, ' '));
  return text.length === line.text.replace(/\r$/, '').length ? { ...line, text } : { text, spans: [] };
}

function mark(line: TextLine, paint: ReturnType<typeof pc.createColors>): string {
  if (line.spans.length === 0) return line.text;
  let out = '';
  let at = 0;
  for (const span of [...line.spans].sort((a, b) => a.start - b.start)) {
    if (span.start < at) continue;
    out += line.text.slice(at, span.start) + paint.bold(paint.yellow(line.text.slice(span.start, span.end)));
    at = span.end;
  }
  return out + line.text.slice(at);
}

/** `[passages within max_tokens 500: 480 tokens used (estimate)]`. */
function budgetLine(budget: NonNullable<SearchResponse['budget']>): string {
  return `[passages within max_tokens ${budget.maxTokens}: ${budget.tokensUsed} tokens used (${budget.counter})]`;
}

function noResultsLine(response: SearchResponse): string {
  const hidden = response.hiddenByQuality;
  if (!hidden) return 'No results.';
  const matches = hidden.count === 1 ? '1 keyword match' : `${hidden.count} keyword matches`;
  return (
    `No results: the quality filter (min_quality ${hidden.minQuality}) hid ${matches}; ` +
    'add --include-low-quality to see them.'
  );
}
