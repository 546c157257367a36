// TREC interop for `groove eval`: the run and the golden set written as TREC run and qrels files, and TREC/BEIR
// query and qrels files read back into golden queries. Identifiers are whitespace-free (TREC splits columns
// on whitespace): `%`, `#`, control characters and every character a common reader splits on inside a path,
// heading or query id are percent-encoded, and a docid is `path#heading` for a heading entry, `path` for a
// document-level one.
import { GrooveError } from '../errors.js';
import type { ExpectedEntry, RankedHit } from './eval-metrics.js';
import { matchHits } from './eval-metrics-extra.js';

/**
 * What some common reader takes for a column or line break: Unicode White_Space (JavaScript's `\s` lacks U+0085),
 * the information separators U+001C–U+001F (Python's `str.split()` splits on them), every other control
 * character, and the zero-width characters older Unicode versions counted as spaces.
 */
const TREC_BREAKING = /[%#\s\p{Cc}\u180e\u200b\ufeff]/gu;
/** Runs of the characters readers split columns on (Python's `str.split()` set), for reading TREC files. */
const TREC_COLUMN_GAP = /[\s\x1c-\x1f\x85]+/u;

/** Percent-encode what would break a TREC column or the `path#heading` split. */
export function encodeTrecId(text: string): string {
  return text.replace(TREC_BREAKING, (ch) =>
    [...Buffer.from(ch, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

export function decodeTrecId(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The docid of a golden entry: `path#heading`, or `path` for an entry that names no heading. */
export function trecDocId(entry: ExpectedEntry): string {
  return entry.heading === null
    ? encodeTrecId(entry.path)
    : `${encodeTrecId(entry.path)}#${encodeTrecId(entry.heading.trim())}`;
}

/** A docid read back: split at the first literal `#` (an encoded one is part of the path). */
export function entryFromTrecDocId(docid: string): ExpectedEntry {
  const cut = docid.indexOf('#');
  if (cut === -1) return { path: decodeTrecId(docid), heading: null };
  return { path: decodeTrecId(docid.slice(0, cut)), heading: decodeTrecId(docid.slice(cut + 1)) };
}

export interface TrecQuery {
  id: string;
  query: string;
  expected: readonly ExpectedEntry[];
}

/**
 * Docids for one query's ranking, so a TREC tool scores it as groove does: a hit that consumed an expected
 * entry (the matching of eval-metrics-extra.ts) carries that entry's docid; any other hit carries its own
 * `path#heading` (`path#` without a heading), with `#<rank>` appended when that id is already taken in this
 * query or is an expected docid it did not consume — so no docid repeats and none is relevant twice.
 */
export function runDocIds(expected: readonly ExpectedEntry[], hits: readonly RankedHit[]): string[] {
  const relevantIds = new Set(expected.map(trecDocId));
  const used = new Set<string>();
  const matches = matchHits(expected, hits);
  return hits.map((hit, i) => {
    const m = matches[i]!;
    let id = m === -1 ? '' : trecDocId(expected[m]!);
    if (id === '' || used.has(id)) {
      id = `${encodeTrecId(hit.path)}#${hit.heading === null ? '' : encodeTrecId(hit.heading)}`;
      if (used.has(id) || relevantIds.has(id)) id = `${id}#${hit.rank}`;
    }
    used.add(id);
    return id;
  });
}

/**
 * The TREC run: `qid Q0 docid rank score tag` per hit. The score column is count − rank + 1: TREC tools
 * re-sort by score (ties by docid), and groove's fused scores can tie, so only a strictly falling number
 * keeps groove's order. A query that returned nothing has no line.
 */
export function formatTrecRun(
  queries: readonly (TrecQuery & { topK: readonly RankedHit[] })[],
  tag: string,
): string {
  const lines: string[] = [];
  for (const q of queries) {
    const ids = runDocIds(q.expected, q.topK);
    q.topK.forEach((_, i) => {
      lines.push(`${encodeTrecId(q.id)} Q0 ${ids[i]} ${i + 1} ${q.topK.length - i} ${encodeTrecId(tag)}`);
    });
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** The golden set as qrels: `qid 0 docid 1` per distinct expected docid. */
export function formatTrecQrels(queries: readonly TrecQuery[]): string {
  const lines: string[] = [];
  for (const q of queries) {
    const seen = new Set<string>();
    for (const entry of q.expected) {
      const id = trecDocId(entry);
      if (seen.has(id)) continue;
      seen.add(id);
      lines.push(`${encodeTrecId(q.id)} 0 ${id} 1`);
    }
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

function trecError(file: string, line: number, reason: string, hint?: string): GrooveError {
  return new GrooveError('GOLDEN_INVALID', `failed to import "${file}" line ${line}: ${reason}`, {
    hint: hint ?? 'see docs/eval.md (TREC interop) for the accepted formats',
  });
}

/** Lines with their 1-based numbers, blank ones dropped. */
function numberedLines(text: string): { line: number; text: string }[] {
  return text
    .split(/\r?\n/)
    .map((t, i) => ({ line: i + 1, text: t }))
    .filter((l) => l.text.trim() !== '');
}

/**
 * Queries: BEIR JSONL (`{"_id": …, "text": …}` per line; other keys ignored) when the first non-blank line
 * starts with `{`, else TSV `qid<TAB>text`. Ids must be unique and texts non-empty.
 */
export function parseTrecQueries(text: string, file: string): { id: string; query: string }[] {
  const lines = numberedLines(text);
  const jsonl = lines[0]?.text.trimStart().startsWith('{') ?? false;
  const seen = new Map<string, number>();
  const out: { id: string; query: string }[] = [];
  for (const { line, text: raw } of lines) {
    let id: string;
    let query: string;
    if (jsonl) {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        throw trecError(file, line, 'not a JSON object (the file reads as BEIR JSONL: one object per line)');
      }
      const record = value as Record<string, unknown> | null;
      if (typeof record !== 'object' || record === null || Array.isArray(record))
        throw trecError(file, line, 'expected a JSON object with `_id` and `text`');
      const rawId = record._id;
      if (typeof rawId !== 'string' && typeof rawId !== 'number')
        throw trecError(file, line, 'missing `_id` (a string or number)');
      if (typeof record.text !== 'string') throw trecError(file, line, 'missing `text` (a string)');
      id = decodeTrecId(String(rawId));
      query = record.text;
    } else {
      const tab = raw.indexOf('\t');
      if (tab === -1) throw trecError(file, line, 'expected `qid<TAB>text`');
      id = decodeTrecId(raw.slice(0, tab).trim());
      query = raw.slice(tab + 1);
    }
    query = query.trim();
    if (id === '') throw trecError(file, line, 'the query id is empty');
    if (query === '') throw trecError(file, line, `query "${id}" has no text`);
    const earlier = seen.get(id);
    if (earlier !== undefined)
      throw trecError(file, line, `query id "${id}" already appears on line ${earlier}`);
    seen.set(id, line);
    out.push({ id, query });
  }
  if (out.length === 0) throw trecError(file, 1, 'no query in the file');
  return out;
}

/**
 * Qrels: TREC `qid iter docid rel` (4 columns) or BEIR `query-id corpus-id score` (3 columns), split on tabs
 * or spaces; a first line whose last column is not an integer is a header. Relevance > 0 is relevant.
 */
export function parseTrecQrels(
  text: string,
  file: string,
): { qid: string; docid: string; relevant: boolean; line: number }[] {
  const out: { qid: string; docid: string; relevant: boolean; line: number }[] = [];
  const lines = numberedLines(text);
  lines.forEach(({ line, text: raw }, index) => {
    const cols = raw.split(TREC_COLUMN_GAP).filter((col) => col !== '');
    const last = cols[cols.length - 1]!;
    const integer = /^[+-]?\d+$/.test(last);
    if (index === 0 && !integer) return;
    if (cols.length !== 3 && cols.length !== 4)
      throw trecError(
        file,
        line,
        `expected 3 columns (qid docid relevance) or 4 (qid iter docid relevance), got ${cols.length}`,
      );
    if (!integer) throw trecError(file, line, `relevance "${last}" is not an integer`);
    const qid = cols[0]!;
    const docid = cols[cols.length - 2]!;
    out.push({ qid: decodeTrecId(qid), docid, relevant: Number(last) > 0, line });
  });
  return out;
}

/**
 * Golden queries from parsed queries and qrels: in the queries file's order, each with its relevant docids
 * (distinct, in qrels order); a query without a relevant judgment is left out. A qrels line naming a query the
 * queries file lacks is an error: the two files do not belong together.
 */
export function goldenFromTrec(
  queries: readonly { id: string; query: string }[],
  qrels: readonly { qid: string; docid: string; relevant: boolean; line: number }[],
  files: { queries: string; qrels: string },
): { id: string; query: string; expected: ExpectedEntry[] }[] {
  const known = new Set(queries.map((q) => q.id));
  const relevant = new Map<string, string[]>();
  for (const r of qrels) {
    if (!known.has(r.qid))
      throw trecError(
        files.qrels,
        r.line,
        `query "${r.qid}" is not in "${files.queries}"`,
        'pass the queries file that belongs to these qrels',
      );
    if (!r.relevant) continue;
    const list = relevant.get(r.qid) ?? [];
    if (!list.includes(r.docid)) list.push(r.docid);
    relevant.set(r.qid, list);
  }
  return queries
    .filter((q) => (relevant.get(q.id) ?? []).length > 0)
    .map((q) => ({ id: q.id, query: q.query, expected: relevant.get(q.id)!.map(entryFromTrecDocId) }));
}
