// Compiles a user query into FTS5 MATCH expressions: the trigram expression (phrase, per-token OR,
// exclusions) and the word-level expression for the Intl.Segmenter-fed table, sharing one exclusion parse.

import { isWordChar, parseQuery, type QueryPart } from './parse-query.js';
import { segmentQueryWords } from './segment-words.js';

/**
 * Version of the query compilation, recorded with eval results so runs compiled differently are not compared.
 * 1 = whole-query phrase, 2 = per-token OR, 3 = exclusions. 4: the ranking leg is a
 * word-level query over Intl.Segmenter words, the trigram expression is kept for substrings, and 1–2 char CJK
 * terms are reported for a bounded substring fallback instead of being silently dropped.
 */
export const FTS_QUERY_VERSION = 4;

/** The trigram tokenizer cannot match anything shorter than this many characters. */
export const TRIGRAM_MIN_CHARS = 3;

/** At most this many phrases per side; more would make the OR expression slow without improving recall. */
export const FTS_MAX_PHRASES = 32;

export interface FtsQuery {
  kind: 'query';
  /** Trigram MATCH expression: `"a" OR "b"`, or `("a" OR "b") NOT ("c")`; null when nothing is searchable. */
  expression: string | null;
  /** Positive phrases, unescaped, in query order, deduplicated, at most 32 (also the match-span terms). */
  phrases: string[];
  /** Negative phrases, unescaped; negatives shorter than 3 characters exclude nothing. */
  negatives: string[];
  /** `"c" OR "d"` for the rowid scan that removes excluded chunks from other legs; null without negatives. */
  negativeExpression: string | null;
  /** 1–2 character CJK terms that the trigram index cannot see (e.g. 東京), for a bounded substring search. */
  shortTerms: string[];
  /** True when phrases or negatives were cut at FTS_MAX_PHRASES. */
  truncated: boolean;
  /** The query with exclusions cut out, whitespace collapsed: what the vector leg embeds. */
  positiveText: string;
}

/** A query made only of exclusions has nothing to search for; this is reported, not thrown. */
export interface FtsQueryRejection {
  kind: 'exclusion-only';
  message: string;
}

export type CompileFtsQueryResult = FtsQuery | FtsQueryRejection;

export interface WordQuery {
  kind: 'query';
  /** MATCH expression for the word-level table; null when the positive text has no words. */
  expression: string | null;
  /** Each positive word or quoted phrase as its space-joined words, deduplicated case-insensitively. */
  terms: string[];
}

export type CompileWordQueryResult = WordQuery | FtsQueryRejection;

const COMBINING_MARK = /\p{M}/u;
const HAN = /\p{Script=Han}/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]/u;

type ScriptClass = 'kanji' | 'hiragana' | 'katakana' | 'other';

/** CJK is checked first: every CJK character is also a letter. Kana ranges are blocks so ー stays katakana. */
function classifyScript(ch: string): ScriptClass {
  const code = ch.codePointAt(0)!;
  if (HAN.test(ch)) return 'kanji';
  if (code >= 0x3040 && code <= 0x309f) return 'hiragana';
  if (
    (code >= 0x30a0 && code <= 0x30ff) ||
    (code >= 0x31f0 && code <= 0x31ff) ||
    (code >= 0xff66 && code <= 0xff9f)
  ) {
    return 'katakana';
  }
  return 'other';
}

function charLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** FTS5 string literal: double quotes inside are doubled. */
export function quoteFtsPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** Cut plain text into groups of word characters (separators: whitespace, punctuation, symbols). */
function splitGroups(text: string): string[] {
  const groups: string[] = [];
  let current = '';
  for (const ch of text) {
    if (isWordChar(ch)) {
      current += ch;
    } else if (current !== '') {
      groups.push(current);
      current = '';
    }
  }
  if (current !== '') groups.push(current);
  return groups;
}

/** Cut a group into runs of one script class; combining marks stay with the run they follow. */
function splitRuns(group: string): string[] {
  const runs: string[] = [];
  let current = '';
  let currentClass: ScriptClass | null = null;
  for (const ch of group) {
    if (currentClass !== null && COMBINING_MARK.test(ch)) {
      current += ch;
      continue;
    }
    const cls = classifyScript(ch);
    if (cls !== currentClass && current !== '') {
      runs.push(current);
      current = '';
    }
    current += ch;
    currentClass = cls;
  }
  if (current !== '') runs.push(current);
  return runs;
}

/**
 * Join runs shorter than the trigram floor to their neighbours, greedily left to right. When a join extends a
 * span that already stood on its own, that span is emitted too, so `再ランキング` also finds `ランキング`.
 */
function joinRuns(runs: string[], emit: (phrase: string) => void): void {
  let pending: string | null = null;
  let lastEmitted: string | null = null;
  for (const run of runs) {
    const runLong = charLength(run) >= TRIGRAM_MIN_CHARS;
    if (pending === null) {
      if (runLong) {
        emit(run);
        lastEmitted = run;
      } else {
        pending = run;
      }
      continue;
    }
    const combined: string = pending + run;
    if (runLong || charLength(combined) >= TRIGRAM_MIN_CHARS) {
      emit(combined);
      if (runLong) emit(run);
      lastEmitted = combined;
      pending = null;
    } else {
      pending = combined;
    }
  }
  // A short tail extends the span before it; that span was already emitted on its own.
  if (pending !== null && lastEmitted !== null) emit(lastEmitted + pending);
}

/**
 * Short terms worth a substring scan: CJK only (Latin short words are whole words the word leg finds, and as
 * substrings they would match inside every longer word), and not a lone hiragana particle such as の or は.
 */
function isShortCjkTerm(term: string): boolean {
  if (term === '' || !CJK.test(term)) return false;
  return !(charLength(term) === 1 && classifyScript(term) === 'hiragana');
}

interface PhraseSink {
  phrases: string[];
  shortTerms: string[];
}

function addPlainText(text: string, sink: PhraseSink): void {
  for (const group of splitGroups(text)) {
    if (charLength(group) < TRIGRAM_MIN_CHARS) {
      if (isShortCjkTerm(group)) sink.shortTerms.push(group);
      continue;
    }
    joinRuns(splitRuns(group), (phrase) => sink.phrases.push(phrase));
  }
}

function addQuotedPhrase(text: string, sink: PhraseSink): void {
  if (charLength(text) >= TRIGRAM_MIN_CHARS) {
    sink.phrases.push(text);
  } else if (isShortCjkTerm(text.trim())) {
    sink.shortTerms.push(text.trim());
  }
}

function dedupe(values: string[]): string[] {
  return [...new Set(values)];
}

function joinOr(phrases: string[]): string {
  return phrases.map(quoteFtsPhrase).join(' OR ');
}

function rejectExclusionOnly(query: string): FtsQueryRejection {
  return {
    kind: 'exclusion-only',
    message:
      `query "${query}" only excludes terms and has nothing to search for; ` +
      'add at least one word that is not prefixed with "-"',
  };
}

/** Compile a query for the trigram table: phrase, per-token OR and exclusions, plus the short-CJK list. */
export function compileFtsQuery(query: string): CompileFtsQueryResult {
  const parsed = parseQuery(query);
  if (parsed.hasExclusion && parsed.positiveText === '') return rejectExclusionOnly(query);

  const positive: PhraseSink = { phrases: [], shortTerms: [] };
  const negative: PhraseSink = { phrases: [], shortTerms: [] };
  for (const part of parsed.parts) {
    const sink = part.negative ? negative : positive;
    if (part.kind === 'phrase') addQuotedPhrase(part.text, sink);
    else addPlainText(part.text, sink);
  }

  let phrases = dedupe(positive.phrases);
  let negatives = dedupe(negative.phrases);
  // v1 behaviour as the last resort: the whole query as one phrase when no token reached the trigram floor.
  if (phrases.length === 0 && charLength(parsed.positiveText) >= TRIGRAM_MIN_CHARS) {
    phrases = [parsed.positiveText];
  }
  const truncated = phrases.length > FTS_MAX_PHRASES || negatives.length > FTS_MAX_PHRASES;
  phrases = phrases.slice(0, FTS_MAX_PHRASES);
  negatives = negatives.slice(0, FTS_MAX_PHRASES);

  const negativeExpression = negatives.length > 0 ? joinOr(negatives) : null;
  let expression: string | null = null;
  if (phrases.length > 0) {
    expression =
      negativeExpression === null ? joinOr(phrases) : `(${joinOr(phrases)}) NOT (${negativeExpression})`;
  }
  return {
    kind: 'query',
    expression,
    phrases,
    negatives,
    negativeExpression,
    shortTerms: dedupe(positive.shortTerms),
    truncated,
    positiveText: parsed.positiveText,
  };
}

/**
 * Stop words for the word-level query (never for the index): the 33 English function words Lucene's standard
 * analyzer drops, and the Japanese particles and copulas found in almost every chunk. Their IDF is ~0, so they
 * barely move bm25, but their posting lists are the longest to read, so dropping them keeps quality and saves
 * time (ADR 0001 has the measurements). A quoted phrase keeps all its words.
 */
export const QUERY_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be but by for if in into is it no not of on or such that the their then there these they ' +
    'this to was will with の に は を が で と も へ や か な だ た て し です ます'
  ).split(' '),
);

export interface CompileWordQueryOptions {
  /** Lower-cased words to leave out of the positive side (a quoted phrase keeps all its words). */
  stopWords?: ReadonlySet<string>;
}

function collectWordTerms(parts: QueryPart[], stopWords: ReadonlySet<string> | undefined): string[] {
  const terms: string[] = [];
  const seen = new Set<string>();
  const addTerm = (term: string): void => {
    const key = term.toLowerCase();
    if (term === '' || seen.has(key)) return;
    seen.add(key);
    terms.push(term);
  };
  for (const part of parts) {
    if (part.negative) continue;
    const words = segmentQueryWords(part.text);
    if (part.kind === 'phrase') {
      addTerm(words.join(' '));
      continue;
    }
    for (const word of words) {
      if (!stopWords?.has(word.toLowerCase())) addTerm(word);
    }
  }
  return terms;
}

/**
 * Compile a query for the word-level table (text pre-segmented by Intl.Segmenter, unicode61 tokenizer):
 * each word quoted, quoted user phrases as FTS5 phrases of their words, OR-joined; the trigram negatives
 * become `NOT` phrases of their words so both legs exclude the same thing.
 */
export function compileWordQuery(
  query: string,
  options: CompileWordQueryOptions = {},
): CompileWordQueryResult {
  const parsed = parseQuery(query);
  if (parsed.hasExclusion && parsed.positiveText === '') return rejectExclusionOnly(query);

  let terms = collectWordTerms(parsed.parts, options.stopWords);
  // A query made only of stop words ("what is it") still searches for them rather than for nothing.
  if (terms.length === 0 && options.stopWords) terms = collectWordTerms(parsed.parts, undefined);
  if (terms.length === 0) return { kind: 'query', expression: null, terms };

  const trigram = compileFtsQuery(query);
  const negatives = trigram.kind === 'query' ? trigram.negatives : [];
  const negativeTerms = dedupe(
    negatives.map((phrase) => segmentQueryWords(phrase).join(' ')).filter(Boolean),
  );
  const positiveExpression = joinOr(terms);
  const expression =
    negativeTerms.length === 0
      ? positiveExpression
      : `(${positiveExpression}) NOT (${joinOr(negativeTerms)})`;
  return { kind: 'query', expression, terms };
}
