// Pure renderers for `groove index` and `groove status` output.

import type { IndexEvent, IndexSummary, StatusReport, UsageCounts } from '../app/index.js';
import { displayLine, displayPath } from '../app/index.js';

/** The per-file stderr line for the default (non-quiet, non-progress) mode, or null for events it omits. */
export function renderIndexEvent(event: IndexEvent): string | null {
  switch (event.kind) {
    case 'start':
      return `groove: indexing ${event.totalFiles} files (${describeModel(event.model)})`;
    case 'file':
      return event.action === 'renamed'
        ? `  renamed: ${displayPath(event.from ?? '')} -> ${displayPath(event.path)}`
        : `  ${event.action}: ${displayPath(event.path)} (${event.chunks} ${event.chunks === 1 ? 'chunk' : 'chunks'})`;
    case 'deleted':
      return `  deleted: ${displayPath(event.path)}`;
    // Messages quote paths: escaped as a whole, so none can break the one-line-per-event output.
    case 'skipped':
      return `  warning: ${displayLine(event.message)}`;
    case 'warning':
      return `  warning: ${displayLine(event.message)}`;
    case 'embed-start':
      return `groove: embedding ${event.total} chunks (searchable by keyword already; vectors fill in as they are stored)`;
    case 'unchanged':
    case 'embedded':
      return null;
  }
}

/** The default mode's embedding line, printed at each 10% step: `  embedded 1200/10000 chunks (12%), 8.4 chunks/s`. */
export function renderEmbeddedLine(event: Extract<IndexEvent, { kind: 'embedded' }>): string {
  const percent = event.total === 0 ? 100 : Math.floor((event.done / event.total) * 100);
  const rate = event.elapsedMs > 0 ? `, ${((event.done * 1000) / event.elapsedMs).toFixed(1)} chunks/s` : '';
  return `  embedded ${event.done}/${event.total} chunks (${percent}%)${rate}`;
}

export function describeModel(model: string): string {
  return model === 'none' ? 'lexical-only: no embedding model, keyword search only' : `model ${model}`;
}

export function renderIndexSummary(summary: IndexSummary): string {
  const seconds = (summary.durationMs / 1000).toFixed(2);
  const lines = [
    `Indexed ${summary.indexed}, updated ${summary.updated}, renamed ${summary.renamed}, deleted ${summary.deleted}, ` +
      `skipped ${summary.skipped}, unchanged ${summary.unchanged} in ${seconds}s`,
    `Index: ${summary.documents} documents, ${summary.chunks} chunks (${describeModel(summary.model)})`,
  ];
  if (summary.pendingEmbeddings > 0) {
    lines.push(`Embeddings pending: ${summary.pendingEmbeddings} chunks (the next run embeds them first)`);
  }
  if (summary.embeddedChunks > 0) {
    const whole = summary.overLimitInputs - summary.truncatedInputs;
    lines.push(
      `Embedding inputs over the model's limit: ${summary.overLimitInputs} of ${summary.embeddedChunks} ` +
        `(read whole in windows: ${whole}, truncated: ${summary.truncatedInputs})`,
    );
  }
  if (summary.frontmatterErrors > 0) {
    lines.push(`Frontmatter not parsed in ${summary.frontmatterErrors} files (bodies indexed; see warnings)`);
  }
  return `${lines.join('\n')}\n`;
}

export function renderStatus(report: StatusReport): string {
  const lines = [
    `KB:            ${displayPath(report.kbPath)}`,
    ...(report.storage.backend === 'postgres'
      ? [`Backend:       postgres ${displayLine(report.storage.location)}`]
      : [
          `Backend:       sqlite`,
          `Index:         ${displayPath(report.dbPath)} (${formatBytes(report.dbSizeBytes)})`,
        ]),
    `Documents:     ${report.documents}`,
    `Chunks:        ${report.chunks}`,
    ...(report.pendingEmbeddings > 0
      ? [
          `Embeddings:    ${report.vectors} of ${report.chunks} chunks (${report.pendingEmbeddings} waiting; ${report.modelPending ? '`groove index` or `groove serve` embeds them once the model is available' : '`groove index` finishes them'})`,
        ]
      : []),
    `Links:         ${report.links}${report.danglingLinks > 0 ? ` (${report.danglingLinks} to notes not indexed)` : ''}`,
    `Model:         ${modelLine(report)}`,
    ...setupLines(report),
    ...(report.modelPending ? [] : [`Dimension:     ${report.dimension}`]),
    `Context mode:  ${report.contextMode}`,
    `Last indexed:  ${report.lastIndexedAt ?? 'never'}`,
  ];
  if (report.frontmatterErrors > 0) lines.push(`Frontmatter errors: ${report.frontmatterErrors}`);
  if (report.usage === null) lines.push('Agent usage:   the usage file could not be read');
  else if (report.usage && report.usage.served > 0) lines.push(`Agent usage:   ${usageLine(report.usage)}`);
  return `${lines.join('\n')}\n`;
}

/** Served documents (MCP `task_id`) and the share of them the same task fetched and judged. */
function usageLine(usage: UsageCounts): string {
  const judged = usage.judged === null ? '' : `, ${usage.judged} judged`;
  const tasks = usage.tasks === 1 ? '1 task' : `${usage.tasks} tasks`;
  return `${usage.served} documents served to ${tasks}; ${usage.fetched} fetched${judged}`;
}

function modelLine(report: StatusReport): string {
  if (report.modelPending) {
    return `${report.model} (configured, not available yet: searches answer by keyword until it loads)`;
  }
  return report.model === 'none' ? 'none (lexical-only)' : report.model;
}

function quotedPrefix(prefix: string): string {
  return prefix === '' ? 'none' : displayLine(JSON.stringify(prefix));
}

/** Pooling, prefixes and where they came from; nothing for a lexical-only index. */
function setupLines(report: StatusReport): string[] {
  if (report.model === 'none' || report.modelPending) return [];
  const { setup } = report;
  if (!setup) return ['Pooling:       not recorded (the next groove index records it)'];
  const lines = [
    `Pooling:       ${setup.pooling ?? 'by the model or endpoint'}`,
    `Prefixes:      query ${quotedPrefix(setup.queryPrefix)}, passage ${quotedPrefix(setup.passagePrefix)}`,
  ];
  if (setup.source !== '') lines.push(`Setup from:    ${displayLine(setup.source)}`);
  if (report.longInputs === 'windows') lines.push('Long inputs:   read whole, in windows');
  if (report.longInputs === 'cut') {
    lines.push(
      'Long inputs:   cut at the model limit (an older index; the next groove index embeds them again)',
    );
  }
  return lines;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
