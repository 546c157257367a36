// The status page's stylesheet (served as /ui/app.css) and icon (/ui/icon.svg): system fonts, light and dark,
// no external resources.
export const PAGE_STYLE = `:root {
  color-scheme: light dark;
  --fg: #1d1f23;
  --muted: #667085;
  --line: #d0d5dd;
  --panel: #f8f9fb;
  --ok: #137333;
  --warn: #a15c00;
  --bad: #b3261e;
  --mark: #fff1a8;
}
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6e8eb; --muted: #98a2b3; --line: #3a3f47; --panel: #1c1f24; --ok: #6dd58c; --warn: #f5b657;
    --bad: #ff8a80; --mark: #5c4b00; }
}
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 120rem; padding: 1rem 1.5rem 3rem; color: var(--fg);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 1rem; border-bottom: 1px solid var(--line); }
h1 { margin: 0.3rem 0; font-size: 1.5rem; }
h2 { margin: 0 0 0.5rem; font-size: 1.1rem; }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem; margin-top: 1rem;
  align-items: start; }
#status-column { display: grid; gap: 1rem; min-width: 0; }
@media (max-width: 60rem) { main { grid-template-columns: minmax(0, 1fr); } }
section { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 0.8rem 1rem; }
#token-panel { margin-top: 1rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 1rem; margin: 0; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
code { font: 0.9em ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
.muted { color: var(--muted); }
.ok { color: var(--ok); }
.warning { color: var(--warn); }
.problem { color: var(--bad); }
#notice { margin: 1rem 0 0; padding: 0.5rem 0.8rem; border: 1px solid var(--bad); border-radius: 6px; color: var(--bad); }
ul, ol { margin: 0.3rem 0; padding-left: 1.3rem; }
.finding { margin-bottom: 0.5rem; }
.badge { display: inline-block; padding: 0 0.4rem; border-radius: 4px; font-size: 0.8em; text-transform: uppercase;
  border: 1px solid currentColor; }
.finding.error .badge { color: var(--bad); }
.finding.warning .badge { color: var(--warn); }
.finding.info .badge { color: var(--muted); }
.remedy { margin: 0.2rem 0 0; color: var(--muted); }
table { width: 100%; margin-top: 0.7rem; border-collapse: collapse; font-size: 0.92em; }
th, td { text-align: left; padding: 0.2rem 0.5rem 0.2rem 0; border-bottom: 1px solid var(--line); vertical-align: top; }
tr.failed td { color: var(--bad); }
form { display: flex; gap: 0.5rem; margin: 0.3rem 0; }
input { flex: 1; min-width: 0; padding: 0.4rem 0.6rem; font: inherit; border: 1px solid var(--line); border-radius: 4px; }
select { padding: 0.4rem 0.6rem; font: inherit; border: 1px solid var(--line); border-radius: 4px; max-width: 40%; }
#kbs td:nth-child(2), #kbs td:nth-child(3) { font-variant-numeric: tabular-nums; }
.kb { padding: 0 0.35rem; margin-right: 0.4rem; border: 1px solid var(--line); border-radius: 4px; }
button { padding: 0.4rem 0.9rem; font: inherit; border: 1px solid var(--line); border-radius: 4px; cursor: pointer; }
#results { padding-left: 1.6rem; }
.hit { margin: 0.7rem 0; }
.hit-head { display: flex; gap: 0.6rem; align-items: baseline; }
.score { color: var(--muted); font-size: 0.85em; font-variant-numeric: tabular-nums; }
.hit-where { color: var(--muted); font-size: 0.9em; }
.snippet { margin: 0.2rem 0 0; white-space: pre-wrap; overflow-wrap: anywhere; }
mark { background: var(--mark); color: inherit; }
`;

/** Three grooves; a page without an icon would ask for /favicon.ico, which needs the token. */
export const PAGE_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">
<rect width="16" height="16" rx="3" fill="#1d1f23"/>
<path d="M3 5h10M3 8h10M3 11h10" stroke="#fff1a8" stroke-width="1.5" stroke-linecap="round"/>
</svg>
`;
