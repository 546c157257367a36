// The HTML reports of `groove eval --report` and `groove tune --report`: pure renderers from the report objects
// the JSON output is made from, one self-contained page each.
export { renderEvalHtml } from './eval-html.js';
export { renderTuneHtml } from './tune-html.js';
