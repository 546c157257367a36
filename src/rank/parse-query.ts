// Splits a raw query into plain text and verbatim "quoted" phrases and recognises `-term` / `-"phrase"`
// exclusions; shared by the trigram and word-level compilers so both legs exclude exactly the same thing.

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const WHITESPACE = /\s/u;

/** One piece of a parsed query: plain text to tokenise, or a verbatim `"quoted"` phrase. */
export interface QueryPart {
  kind: 'plain' | 'phrase';
  text: string;
  negative: boolean;
}

export interface ParsedQuery {
  parts: QueryPart[];
  positiveText: string;
  hasExclusion: boolean;
}

/** Hyphens count as word characters so that `sqlite-vec` stays one group. */
export function isWordChar(ch: string): boolean {
  return ch === '-' || WORD_CHAR.test(ch);
}

/** Split the query into plain and quoted parts, marking `-term` / `-"phrase"` exclusions. */
export function parseQuery(query: string): ParsedQuery {
  const parts: QueryPart[] = [];
  const cutSpans: Array<[number, number]> = [];
  let plainStart = 0;
  const flushPlain = (end: number): void => {
    if (end > plainStart) parts.push({ kind: 'plain', text: query.slice(plainStart, end), negative: false });
  };
  let i = 0;
  while (i < query.length) {
    const ch = query[i]!;
    const atTokenStart = i === 0 || WHITESPACE.test(query[i - 1]!);
    if (ch === '-' && atTokenStart) {
      const next = String.fromCodePoint(query.codePointAt(i + 1) ?? 0x20);
      const close = next === '"' ? query.indexOf('"', i + 2) : -1;
      if (close !== -1) {
        flushPlain(i);
        parts.push({ kind: 'phrase', text: query.slice(i + 2, close), negative: true });
        cutSpans.push([i, close + 1]);
        i = close + 1;
        plainStart = i;
        continue;
      }
      // `--x`, `---`, a lone `-` and `- foo` are literal text.
      if (next !== '-' && isWordChar(next)) {
        let end = i + 1;
        while (end < query.length && query[end] !== '"' && !WHITESPACE.test(query[end]!)) end++;
        flushPlain(i);
        parts.push({ kind: 'plain', text: query.slice(i + 1, end), negative: true });
        cutSpans.push([i, end]);
        i = end;
        plainStart = i;
        continue;
      }
    }
    if (ch === '"') {
      const close = query.indexOf('"', i + 1);
      // An unclosed quote is literal and the rest of the query is plain text.
      if (close === -1) break;
      flushPlain(i);
      parts.push({ kind: 'phrase', text: query.slice(i + 1, close), negative: false });
      i = close + 1;
      plainStart = i;
      continue;
    }
    i++;
  }
  flushPlain(query.length);

  let positiveText = '';
  let from = 0;
  for (const [start, end] of cutSpans) {
    positiveText += `${query.slice(from, start)} `;
    from = end;
  }
  positiveText += query.slice(from);
  positiveText = positiveText.replace(/\s+/gu, ' ').trim();
  return { parts, positiveText, hasExclusion: cutSpans.length > 0 };
}
