// The search request every surface sends (CLI flags, MCP arguments, eval), and its validation at the boundary.
import { z } from 'zod';
import { isCalendarDate } from '../../core/calendar-date.js';
import { GrooveError } from '../../errors.js';

const MAX_QUERY_BYTES = 1024;
const MAX_FILTER_ENTRIES = 64;
const MAX_FILTER_ENTRY_BYTES = 1024;

const filterList = z
  .array(
    z
      .string()
      .min(1)
      .refine((s) => Buffer.byteLength(s) <= MAX_FILTER_ENTRY_BYTES, 'entry over 1 KiB'),
  )
  .max(MAX_FILTER_ENTRIES);
const isoDate = z
  .string()
  .refine(isCalendarDate, 'must be a calendar date YYYY-MM-DD that exists, like 2026-01-31');
const unit = z.number().refine(Number.isFinite, 'must be finite').min(0).max(1);

export const searchRequestSchema = z.strictObject({
  query: z
    .string()
    .refine((q) => q.trim().length > 0, 'must not be empty')
    .refine((q) => Buffer.byteLength(q) <= MAX_QUERY_BYTES, 'must be at most 1024 bytes'),
  limit: z.number().int().min(1).max(1000).optional(),
  pathGlobs: filterList.min(1, 'must list at least one glob when given').optional(),
  tagsAny: filterList.optional(),
  tagsAll: filterList.optional(),
  dateFrom: isoDate.optional(),
  dateTo: isoDate.optional(),
  category: z.string().min(1).optional(),
  topic: z.string().min(1).optional(),
  minQuality: unit.optional(),
  includeLowQuality: z.boolean().optional(),
  rerank: z.boolean().optional(),
  mmr: z.boolean().optional(),
  mmrLambda: unit.optional(),
  mmrSameDocPenalty: unit.optional(),
  parentRetriever: z.boolean().optional(),
  minConfidenceRatio: z.number().refine(Number.isFinite, 'must be finite').min(0).optional(),
  explain: z.boolean().optional(),
});

export type SearchRequest = z.infer<typeof searchRequestSchema>;

/** Snake-case names as the CLI and MCP spell them, for error messages. */
const WIRE_NAMES: Record<string, string> = {
  pathGlobs: 'path_globs',
  tagsAny: 'tags_any',
  tagsAll: 'tags_all',
  dateFrom: 'date_from',
  dateTo: 'date_to',
  minQuality: 'min_quality',
  includeLowQuality: 'include_low_quality',
  mmrLambda: 'mmr_lambda',
  mmrSameDocPenalty: 'mmr_same_doc_penalty',
  parentRetriever: 'parent_retriever',
  minConfidenceRatio: 'min_confidence_ratio',
};

/** Validate a request or throw INVALID_ARGUMENT naming the field, the problem and the allowed range. */
export function validateSearchRequest(input: unknown): SearchRequest {
  const parsed = searchRequestSchema.safeParse(input);
  if (parsed.success) {
    const request = parsed.data;
    if (request.dateFrom && request.dateTo && request.dateFrom > request.dateTo) {
      throw new GrooveError(
        'INVALID_ARGUMENT',
        `date_from ${request.dateFrom} is after date_to ${request.dateTo}`,
        {
          hint: 'swap the two dates',
        },
      );
    }
    return request;
  }
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? 'request');
  const name = WIRE_NAMES[field] ?? field;
  const message =
    issue.code === 'unrecognized_keys'
      ? `unknown search parameter "${issue.keys[0]}"`
      : `${name} ${issue.message}`;
  throw new GrooveError('INVALID_ARGUMENT', `invalid search: ${message}`, {
    hint: 'see `groove search --help` for every parameter and its range',
  });
}
