// Pure text renderer for search results (the JSON form is searchResponseToJson, shared with MCP).
import { describeLeg, displayPath, legBroke, type SearchResponse } from '../app/index.js';

export function renderSearchText(response: SearchResponse, options: { minConfidenceRatio: number }): string {
  const lines: string[] = [];
  if (response.lexicalOnly)
    lines.push('[lexical-only: no embedding model in this index; keyword matches only]');
  for (const [leg, health] of Object.entries(response.legs)) {
    if (legBroke(health)) lines.push(`[${leg} leg ${describeLeg(health)}]`);
  }
  if (response.lowConfidence)
    lines.push(`[low_confidence: top1 / mean ratio < ${options.minConfidenceRatio}]`);
  if (response.results.length === 0) lines.push(noResultsLine(response));
  const blocks = response.results.map((hit) => {
    // The path line is escaped whole: neither the file name nor the heading can forge a line.
    const where = displayPath(hit.heading ? `${hit.path}#${hit.heading}` : hit.path);
    const block = [`# ${hit.title}`, where, `score: ${hit.score.toFixed(4)}`];
    if (hit.tags.length > 0) block.push(`tags: ${hit.tags.join(', ')}`);
    const from = hit.expandedFrom;
    if (from && (from.kind === 'link' || from.kind === 'co_helpful')) {
      const parent = displayPath(from.heading ? `${from.path}#${from.heading}` : from.path);
      block.push(`pulled in by the graph hop (${from.kind}) from ${parent}`);
    }
    if (hit.explain) block.push(`explain: ${JSON.stringify(hit.explain)}`);
    block.push('', hit.content.trim());
    return block.join('\n');
  });
  return `${[...lines, blocks.join('\n---\n')].filter((s) => s !== '').join('\n')}\n`;
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
