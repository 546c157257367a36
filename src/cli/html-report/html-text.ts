// The text rules of the HTML reports: every string from the knowledge base, the golden file or the queries goes
// through escapeHtml before it touches markup, and embedded JSON cannot close its <script> element.

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/**
 * A `<script type="application/json">` block: `<`, `>` and `&` are written as JSON escapes, so no value can end
 * the element or open a comment, and JSON.parse of its text gives `value` back.
 */
export function renderJsonBlock(id: string, value: unknown): string {
  const json = JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${escapeHtml(id)}">${json}</script>`;
}

/** A metric value as shown: three decimals, or an em dash when it was not measured or is not finite. */
export function formatValue(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(digits);
}

/** A signed difference: `+0.012`, `-0.040`, or an em dash. */
export function formatSigned(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;
}

/** The exact number for a `data-value` attribute (tests read it back); empty when there is none. */
export function dataValue(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '' : String(value);
}

/** A table cell holding a number: shown rounded, its exact value in data-value for tests and sorting. */
export function numberCell(value: number | null | undefined, attributes = ''): string {
  const extra = attributes === '' ? '' : ` ${attributes}`;
  return `<td class="num" data-value="${dataValue(value)}"${extra}>${formatValue(value)}</td>`;
}
