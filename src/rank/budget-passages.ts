// Passages that fit a token budget: extracts around the query's matches in the ranked hits, cut at sentence and
// line boundaries (passage-segments.ts), each counted with the caller's token counter. Pure.
//
// Rules: a segment scores the summed weight of the distinct query terms it holds, a term weighing
// ln(1 + segments / segments holding it) over every hit's segments, so a word found everywhere adds little.
// A passage is a matched segment with `context` segments on each side, the best segments first; a window is
// cut back where it would overlap one of its hit's windows made before it, so no text of a hit is offered
// twice. A heading line or blank segment is never a passage of its own. A hit with no match offers its
// opening segments. Passages are taken in rounds — each hit's best passage in rank order, then each hit's
// second, … — and one that does not fit the tokens left is tried as its matched segment alone, else skipped.
// A passage whose text (whitespace and case ignored) is already inside a taken one is skipped. When nothing
// fits at all, the first passage is cut to the budget. The passages come back by hit rank, then by their rank
// within the hit.
import { normalizeForQuote } from '../core/quote-text.js';
import { measureCodePointAt } from '../core/utf8-bytes.js';
import { type Segment, splitSegments } from './passage-segments.js';
import { prefixWithinTokens } from './token-estimate.js';

export interface PassageHit {
  content: string;
  /** Where the query's terms occur in `content`, as UTF-8 byte ranges (the hit's match_spans). */
  matchSpans: readonly { start: number; end: number }[];
  /** The line of its file `content` starts on, or null when its lines are not known. */
  firstLine: number | null;
}

export interface BudgetPassage {
  /** Index of the hit it was cut from, in the hits given. */
  hit: number;
  text: string;
  /** Where `text` lies in the hit's content: UTF-16 offsets [start, end). */
  start: number;
  end: number;
  /** The file lines the passage spans (from the hit's firstLine), or null. */
  lineStart: number | null;
  lineEnd: number | null;
  tokens: number;
}

export interface BudgetPassageOptions {
  maxTokens: number;
  count: (text: string) => number;
  /** Segments kept on each side of a matched one. */
  context?: number;
  /** Most passages taken from one hit. */
  perHit?: number;
}

/**
 * Segments around a matched one: none, so a small budget reaches more hits (measured against one on each side in
 * docs/measurements.md).
 */
export const DEFAULT_PASSAGE_CONTEXT = 0;
export const DEFAULT_PASSAGES_PER_HIT = 3;

interface Candidate {
  hit: number;
  order: number;
  start: number;
  end: number;
  /** The matched segment the window grew from: what is tried alone when the window does not fit. */
  core: Segment;
}

export interface BudgetSelection {
  passages: BudgetPassage[];
  tokensUsed: number;
}

/** The passages of `hits` (best first) that fit `maxTokens`; see the rules above. */
export function selectBudgetPassages(
  hits: readonly PassageHit[],
  options: BudgetPassageOptions,
): BudgetSelection {
  const context = options.context ?? DEFAULT_PASSAGE_CONTEXT;
  const perHit = options.perHit ?? DEFAULT_PASSAGES_PER_HIT;
  const analysed = hits.map(analyseHit);
  const weight = termWeights(analysed);
  const candidates = analysed.map((hit, i) => candidatesOf(hit, i, weight, context).slice(0, perHit));
  return fillBudget(hits, candidates, options);
}

interface AnalysedHit {
  segments: Segment[];
  /** Per segment, the distinct terms (lowercased span text) matched in it. */
  terms: Set<string>[];
  /** Per segment, whether it is blank or a Markdown heading line: never a passage of its own. */
  bare: boolean[];
}

const HEADING_LINE = /^#{1,6}\s/;

function analyseHit(hit: PassageHit): AnalysedHit {
  const segments = splitSegments(hit.content);
  const terms = segments.map(() => new Set<string>());
  let s = 0;
  for (const span of toUnitRanges(hit.content, hit.matchSpans)) {
    while (s < segments.length && segments[s]!.end <= span.start) s++;
    const term = hit.content.slice(span.start, span.end).toLowerCase();
    for (let j = s; j < segments.length && segments[j]!.start < span.end; j++) terms[j]!.add(term);
  }
  const bare = segments.map((s) => {
    const text = hit.content.slice(s.start, s.end).trim();
    return text === '' || HEADING_LINE.test(text);
  });
  return { segments, terms, bare };
}

/** UTF-8 byte ranges of `text` as UTF-16 ranges (sorted ranges in, sorted out). */
function toUnitRanges(text: string, spans: readonly { start: number; end: number }[]): Segment[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const wanted = [...new Set(sorted.flatMap((s) => [s.start, s.end]))].sort((a, b) => a - b);
  const unitAt = new Map<number, number>();
  let bytes = 0;
  let unit = 0;
  for (const target of wanted) {
    while (bytes < target && unit < text.length) {
      const point = measureCodePointAt(text, unit);
      bytes += point.bytes;
      unit += point.units;
    }
    unitAt.set(target, unit);
  }
  return sorted.map((s) => ({ start: unitAt.get(s.start)!, end: unitAt.get(s.end)! }));
}

function termWeights(hits: readonly AnalysedHit[]): Map<string, number> {
  const holding = new Map<string, number>();
  let segments = 0;
  for (const hit of hits) {
    segments += hit.segments.length;
    for (const terms of hit.terms) for (const term of terms) holding.set(term, (holding.get(term) ?? 0) + 1);
  }
  return new Map([...holding].map(([term, n]) => [term, Math.log(1 + segments / n)]));
}

function windowScore(hit: AnalysedHit, from: number, to: number, weight: Map<string, number>): number {
  const seen = new Set<string>();
  for (let j = from; j <= to; j++) for (const term of hit.terms[j]!) seen.add(term);
  let score = 0;
  for (const term of seen) score += weight.get(term) ?? 0;
  return score;
}

/** One hit's passages, best first: windows around its best segments, merged where they meet. */
function candidatesOf(
  hit: AnalysedHit,
  index: number,
  weight: Map<string, number>,
  context: number,
): Candidate[] {
  const last = hit.segments.length - 1;
  if (last < 0) return [];
  const matched = hit.segments
    .map((_, j) => ({ j, score: windowScore(hit, j, j, weight) }))
    .filter((s) => s.score > 0 && !hit.bare[s.j])
    .sort((a, b) => b.score - a.score || a.j - b.j);
  // A hit without matches outside headings (the vector leg's alone) offers its opening segments.
  const opening = Math.max(0, hit.bare.indexOf(false));
  const windows =
    matched.length === 0 ? [{ from: opening, to: Math.min(last, opening + 2 * context), core: opening }] : [];
  for (const { j } of matched) {
    if (windows.some((w) => j >= w.from && j <= w.to)) continue;
    windows.push(clippedWindow(windows, j, context, last));
  }
  return windows
    .map((w) => ({ w, score: windowScore(hit, w.from, w.to, weight) }))
    .sort((a, b) => b.score - a.score || a.w.from - b.w.from)
    .map(({ w }, order) => ({
      hit: index,
      order,
      start: hit.segments[w.from]!.start,
      end: hit.segments[w.to]!.end,
      core: hit.segments[w.core]!,
    }));
}

/** The window of `context` segments around segment `j`, cut back where it would overlap a window already taken. */
function clippedWindow(
  taken: readonly { from: number; to: number }[],
  j: number,
  context: number,
  last: number,
): { from: number; to: number; core: number } {
  let from = Math.max(0, j - context);
  let to = Math.min(last, j + context);
  for (const w of taken) {
    if (w.to < j) from = Math.max(from, w.to + 1);
    if (w.from > j) to = Math.min(to, w.from - 1);
  }
  return { from, to, core: j };
}

/** Take candidates round by round until the budget is spent; see the rules at the top. */
function fillBudget(
  hits: readonly PassageHit[],
  candidates: readonly Candidate[][],
  options: BudgetPassageOptions,
): BudgetSelection {
  const { count, maxTokens } = options;
  const taken: (BudgetPassage & { order: number; key: string })[] = [];
  let left = maxTokens;
  const rounds = Math.max(0, ...candidates.map((c) => c.length));
  for (let round = 0; round < rounds && left > 0; round++) {
    for (const list of candidates) {
      const candidate = list[round];
      if (!candidate || left <= 0) continue;
      for (const range of [candidate, candidate.core]) {
        const passage = passageOf(hits[candidate.hit]!, candidate.hit, range, count);
        if (passage === null) break;
        const key = normalizeForQuote(passage.text);
        if (taken.some((t) => t.key.includes(key))) break;
        if (passage.tokens > left) continue;
        taken.push({ ...passage, order: candidate.order, key });
        left -= passage.tokens;
        break;
      }
    }
  }
  const first = candidates.find((c) => c.length > 0)?.[0];
  if (taken.length === 0 && first && maxTokens > 0) {
    const hit = hits[first.hit]!;
    const core = passageOf(hit, first.hit, first.core, count);
    if (core) {
      const text = prefixWithinTokens(core.text, maxTokens, count);
      const cut = passageOf(hit, first.hit, { start: core.start, end: core.start + text.length }, count);
      if (cut && cut.tokens <= maxTokens) taken.push({ ...cut, order: 0, key: '' });
    }
  }
  taken.sort((a, b) => a.hit - b.hit || a.order - b.order);
  return {
    passages: taken.map(({ order: _order, key: _key, ...passage }) => passage),
    tokensUsed: taken.reduce((sum, p) => sum + p.tokens, 0),
  };
}

/** The passage of `hit` over `range`, surrounding whitespace trimmed, with its lines; null when it is blank. */
function passageOf(
  hit: PassageHit,
  index: number,
  range: Segment,
  count: (text: string) => number,
): BudgetPassage | null {
  const raw = hit.content.slice(range.start, range.end);
  const text = raw.trim();
  if (text === '') return null;
  const start = range.start + (raw.length - raw.trimStart().length);
  const end = start + text.length;
  const linesBefore = countLines(hit.content, 0, start);
  return {
    hit: index,
    text,
    start,
    end,
    lineStart: hit.firstLine === null ? null : hit.firstLine + linesBefore,
    lineEnd:
      hit.firstLine === null ? null : hit.firstLine + linesBefore + countLines(hit.content, start, end),
    tokens: count(text),
  };
}

function countLines(text: string, from: number, to: number): number {
  let lines = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) lines++;
  return lines;
}
