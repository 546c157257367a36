// The shell of both HTML reports: one self-contained page — inline CSS, inline SVG, the report's JSON in a data
// block and one small script that sorts tables — under a Content-Security-Policy that allows exactly that style
// and that script (by hash), and nothing else: no network, no other script, no images from anywhere.
import { createHash } from 'node:crypto';
import { escapeHtml, renderJsonBlock } from './html-text.js';

const PAGE_STYLE = `
:root { color-scheme: light; --fg: #1d2125; --muted: #5f6b76; --line: #d8dee4; --bad: #b42318; --good: #067647; --warn: #b54708; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); margin: 0 auto; max-width: 1280px; padding: 16px 24px 48px; }
h1 { font-size: 22px; margin: 8px 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
.muted { color: var(--muted); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: 6px 0 12px; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f3f5f7; font-weight: 600; white-space: nowrap; }
#per-query { width: 100%; }
#per-query td.query-text { max-width: 260px; overflow-wrap: anywhere; }
#per-query td.query-id { max-width: 180px; overflow-wrap: anywhere; }
#per-query td.hits-cell { min-width: 320px; max-width: 440px; overflow-wrap: anywhere; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
th[data-sort] { cursor: pointer; user-select: none; }
th[data-sort] button { all: inherit; cursor: pointer; padding: 0; border: 0; background: none; }
th[aria-sort="ascending"]::after { content: " ▲"; }
th[aria-sort="descending"]::after { content: " ▼"; }
.badge { display: inline-block; border-radius: 3px; padding: 0 5px; font-size: 12px; font-weight: 600; }
.badge.miss, .badge.regressed, .badge.fails, .badge.worse, .badge.down { background: #fee4e2; color: var(--bad); }
.badge.improved, .badge.holds, .badge.ok { background: #dcfae6; color: var(--good); }
.badge.unchanged, .badge.none { background: #eaecf0; color: var(--muted); }
.badge.warn { background: #fef0c7; color: var(--warn); }
ol.hits { margin: 0; padding-left: 22px; font-size: 12px; }
ol.hits li.expected { color: var(--good); font-weight: 600; }
ol.hits li.expected::marker { content: "✓ "; }
ul.missing { margin: 2px 0 0; padding-left: 18px; font-size: 12px; color: var(--bad); }
.charts { display: flex; flex-wrap: wrap; gap: 12px; }
figure { margin: 0; }
figcaption { font-size: 13px; font-weight: 600; }
svg text { font: 10px system-ui, sans-serif; fill: #3d4751; }
svg text.on-dark { fill: #fff; }
svg text.on-light { fill: #111; }
svg .axis { stroke: #9aa4ae; stroke-width: 1; }
svg .grid { stroke: #eceff2; stroke-width: 1; }
svg .trend-line { fill: none; stroke: #2e6bd9; stroke-width: 1.5; }
svg .point.compatible { fill: #2e6bd9; stroke: #fff; }
svg .point.incompatible { fill: #fff; stroke: #8a94a0; stroke-width: 1.5; }
svg .point.degraded { stroke: var(--bad); stroke-width: 2.5; }
svg .point.current { stroke: #111; stroke-width: 2; }
svg .cell.default { stroke: #f79009; stroke-width: 2.5; stroke-dasharray: 4 2; }
svg .cell.refit { stroke: #e11d48; stroke-width: 2.5; }
svg .bar.worse { fill: #d92d20; }
svg .bar.same { fill: #98a2b3; }
svg .bar.better { fill: #17b26a; }
.legend { font-size: 12px; color: var(--muted); }
pre { background: #f6f8fa; padding: 8px; overflow-x: auto; }
`;

/** Sorts a table when a header with data-sort is clicked: ascending first, then descending; stable. */
const SORT_SCRIPT = `
(function () {
  function key(row, column, numeric) {
    var cell = row.cells[column];
    var raw = cell ? (cell.getAttribute('data-sort-value') ?? cell.getAttribute('data-value') ?? cell.textContent) : '';
    if (!numeric) return raw;
    var n = parseFloat(raw);
    return isNaN(n) ? -Infinity : n;
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    table.querySelectorAll('th[data-sort]').forEach(function (th) {
      th.addEventListener('click', function () {
        var numeric = th.getAttribute('data-sort') === 'number';
        var ascending = th.getAttribute('aria-sort') !== 'ascending';
        table.querySelectorAll('th[aria-sort]').forEach(function (other) { other.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows).map(function (row, i) {
          return { row: row, i: i, k: key(row, th.cellIndex, numeric) };
        });
        rows.sort(function (a, b) {
          var order = a.k < b.k ? -1 : a.k > b.k ? 1 : 0;
          return (ascending ? order : -order) || a.i - b.i;
        });
        rows.forEach(function (r) { body.appendChild(r.row); });
      });
    });
  });
})();
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Only the page's own style and script run; nothing is fetched, framed, submitted or based elsewhere. */
export const REPORT_CSP = [
  "default-src 'none'",
  `style-src ${sha256(PAGE_STYLE)}`,
  `script-src ${sha256(SORT_SCRIPT)}`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export interface ReportPageOptions {
  title: string;
  body: string;
  /** Data blocks (`<script type="application/json">`), by element id. */
  data: Record<string, unknown>;
}

export function renderReportPage(options: ReportPageOptions): string {
  const data = Object.entries(options.data).map(([id, value]) => renderJsonBlock(id, value));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(options.title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
${options.body}
${data.join('\n')}
<script>${SORT_SCRIPT}</script>
</body>
</html>
`;
}
