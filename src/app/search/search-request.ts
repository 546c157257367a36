// The search request every surface sends (CLI flags, MCP arguments, eval), and its validation at the boundary.

import { type SearchRequest, wireName } from '../../config/search-params.js';
import { GrooveError } from '../../errors.js';
import { searchRequestSchema } from './search-param-schema.js';

export type { SearchRequest } from '../../config/search-params.js';

/**
 * Validate a request or throw INVALID_ARGUMENT naming the field (as the CLI and MCP spell it), the problem and
 * the allowed range. Beyond each field's own rules, date_from may not be after date_to.
 */
export function validateSearchRequest(input: unknown): SearchRequest {
  const parsed = searchRequestSchema().safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const message =
      issue.code === 'unrecognized_keys'
        ? `unknown search parameter "${issue.keys[0]}"`
        : `${wireName(String(issue.path[0] ?? 'request'))} ${issue.message}`;
    throw new GrooveError('INVALID_ARGUMENT', `invalid search: ${message}`, {
      hint: 'see `groove search --help` for every parameter and its range',
    });
  }
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
