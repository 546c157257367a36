// The zod schemas of a search request, generated from the parameter table: the app's (camelCase keys) and
// the wire's (snake_case keys, each field described, for the MCP tool). Both apply the same rules; a message
// starts with `label`, so the wire schema can name the field inside its own messages.
import * as z from 'zod';
import { paramHelp } from '../../config/search-param-text.js';
import {
  SEARCH_PARAMS,
  type SearchParam,
  type SearchRequest,
  type SearchWireRequest,
} from '../../config/search-params.js';
import { isCalendarDate } from '../../core/calendar-date.js';
import { countUtf8Bytes } from '../../core/utf8-bytes.js';

const CALENDAR_DATE_RULE = 'must be a calendar date YYYY-MM-DD that exists, like 2026-01-31';

/**
 * The schema of one parameter's value; every message starts with `label` and is groove's own, a value of the
 * wrong JSON type included (a query-string `limit=abc` arrives as a string).
 */
export function paramSchema(param: SearchParam, label: string): z.ZodType {
  switch (param.type) {
    case 'string':
      return textSchema(param, label);
    case 'date':
      return z
        .string({ error: `${label}${CALENDAR_DATE_RULE}` })
        .refine(isCalendarDate, `${label}${CALENDAR_DATE_RULE}`);
    case 'boolean':
      return z.boolean({ error: `${label}must be true or false` });
    case 'integer': {
      const rule = `${label}${numberRule(param, 'a whole number')}`;
      return bounded(z.number({ error: rule }).int(rule), param, rule);
    }
    case 'number': {
      const rule = `${label}${numberRule(param, 'a number')}`;
      return bounded(z.number({ error: rule }).refine(Number.isFinite, rule), param, rule);
    }
    case 'stringList':
      return listSchema(param, label);
    case 'choice':
      return choiceSchema(param, label);
  }
}

/** `must be a whole number from 1 to 1000`, as the CLI's flags say it. */
function numberRule(param: SearchParam, kind: string): string {
  const { min, max } = param;
  if (min === undefined) return `must be ${kind}`;
  return max === undefined ? `must be ${kind} of ${min} or more` : `must be ${kind} from ${min} to ${max}`;
}

/** Non-blank text (a query must have something in it besides spaces) within the byte cap. */
function textSchema(param: SearchParam, label: string): z.ZodType {
  const empty = `${label}must not be empty`;
  let text = z.string({ error: `${label}must be text` }).min(1, empty);
  if (param.required) text = text.refine((s) => s.trim().length > 0, empty);
  const cap = param.maxBytes;
  return cap === undefined
    ? text
    : text.refine((s) => countUtf8Bytes(s) <= cap, `${label}must be at most ${cap} bytes`);
}

/** One of the parameter's values (an enum in the wire's JSON schema), the values named in the message. */
function choiceSchema(param: SearchParam, label: string): z.ZodType {
  const values = param.values ?? [];
  return z.enum(values as [string, ...string[]], { error: `${label}must be one of ${values.join(', ')}` });
}

function bounded(number: z.ZodNumber, param: SearchParam, rule: string): z.ZodNumber {
  const { min, max } = param;
  let checked = number;
  if (min !== undefined) checked = checked.min(min, rule);
  if (max !== undefined) checked = checked.max(max, rule);
  return checked;
}

function listSchema(param: SearchParam, label: string): z.ZodType {
  const noun = param.entry ?? 'entry';
  const cap = param.maxBytes ?? Number.POSITIVE_INFINITY;
  const entry = z
    .string({ error: `${label}${noun}s must be text` })
    .min(1, `${label}${noun}s must not be empty`)
    .refine((s) => countUtf8Bytes(s) <= cap, `${label}${noun}s must be at most ${cap} bytes each`);
  let list = z.array(entry, { error: `${label}must be a list of ${noun}s` });
  if (param.maxEntries !== undefined) {
    list = list.max(param.maxEntries, `${label}takes at most ${param.maxEntries} ${noun}s`);
  }
  if (param.minEntries !== undefined) {
    const omit = '(omit it to search everything)';
    list = list.min(param.minEntries, `${label}must list at least one ${noun} when given ${omit}`);
  }
  return list;
}

/** A strict object of every parameter under its `key`; all but the query optional. */
function objectSchema(key: 'name' | 'wire', field: (param: SearchParam) => z.ZodType, described: boolean) {
  const shape = Object.fromEntries(
    SEARCH_PARAMS.map((param: SearchParam) => {
      const value = param.required ? field(param) : field(param).optional();
      return [param[key], described ? value.describe(paramHelp(param)) : value];
    }),
  );
  return z.strictObject(shape);
}

// Both schemas are built on first use: a zod schema of every parameter costs milliseconds to construct, and a
// cold one-shot search needs only the request schema (the wire schema is the MCP server's).
let requestSchema: z.ZodType<SearchRequest> | null = null;
let wireSchema: z.ZodType<SearchWireRequest> | null = null;

/** The app's request schema: camelCase keys; messages leave the field name to the caller. */
export function searchRequestSchema(): z.ZodType<SearchRequest> {
  requestSchema ??= objectSchema(
    'name',
    (param) => paramSchema(param, ''),
    false,
  ) as unknown as z.ZodType<SearchRequest>;
  return requestSchema;
}

/** The wire schema (the MCP `search` tool's input): snake_case keys, named in messages, each described. */
export function searchWireSchema(): z.ZodType<SearchWireRequest> {
  wireSchema ??= objectSchema(
    'wire',
    (param) => paramSchema(param, `${param.wire} `),
    true,
  ) as unknown as z.ZodType<SearchWireRequest>;
  return wireSchema;
}
