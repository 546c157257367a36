// One Markdown text's frontmatter checked against a schema: each broken rule is one violation with the field,
// the file line and the details a CI report needs. A value that has the wrong type gets only that violation:
// its pattern, enum and length are not checked as well.
import { type FrontmatterField, readFrontmatterFields } from '../../document/frontmatter-fields.js';
import { type FieldRule, matchesType, type ScalarType, type ValidationSchema } from './validation-schema.js';

export type ViolationKind =
  | 'frontmatter_unparsed'
  | 'missing_required'
  | 'type_mismatch'
  | 'pattern_mismatch'
  | 'not_in_enum'
  | 'length_out_of_range'
  | 'undeclared_field';

export interface Violation {
  kind: ViolationKind;
  /** null for `frontmatter_unparsed`. */
  field: string | null;
  /** File line (1-based): the key, the list item, or the opening fence for a missing field. */
  line: number;
  message: string;
  /** Position in the list, for a violation of one list item. */
  index?: number;
  /** type_mismatch: the declared type and the value's kind. */
  expected?: string;
  /** The value's kind (type_mismatch), the value (pattern_mismatch, not_in_enum) or its length. */
  actual?: unknown;
  pattern?: string;
  allowed?: readonly (string | number)[];
  min?: number | null;
  max?: number | null;
}

export interface ValidateOptions {
  /** Report keys the schema does not declare (also when the schema sets allow_unknown_fields = false). */
  strict: boolean;
}

/** Where a missing field is reported: the opening fence, or the first line of a file without frontmatter. */
const TOP_LINE = 1;
/** Longest value quoted in full in a message. */
const QUOTE_LIMIT = 80;

/** Check `text`'s frontmatter; violations in line order (schema order within a line). */
export function validateFrontmatter(
  text: string,
  schema: ValidationSchema,
  options: ValidateOptions,
): Violation[] {
  const read = readFrontmatterFields(text);
  if (!read.ok) {
    return [{ kind: 'frontmatter_unparsed', field: null, line: read.line, message: read.error }];
  }
  const byKey = new Map(read.fields.map((field) => [field.key, field]));
  const violations: Violation[] = [];
  for (const rule of schema.fields) {
    const field = byKey.get(rule.name);
    if (field === undefined) {
      if (rule.required) violations.push(missing(rule.name, TOP_LINE, 'is missing'));
    } else if (isEmpty(field.value) && !rule.allowEmpty) {
      // An empty value is an absent one: only a required field complains.
      if (rule.required) violations.push(missing(rule.name, field.line, 'is empty'));
    } else if (!isEmpty(field.value)) {
      checkValue(rule, field, violations);
    }
  }
  if (options.strict || !schema.allowUnknownFields) {
    const declared = new Set(schema.fields.map((rule) => rule.name));
    for (const field of read.fields) {
      if (!declared.has(field.key)) {
        violations.push({
          kind: 'undeclared_field',
          field: field.key,
          line: field.line,
          message: `field ${quote(field.key)} is not declared in the schema`,
        });
      }
    }
  }
  // Array.prototype.sort is stable, so rules on one line keep the schema's order.
  return violations.sort((a, b) => a.line - b.line);
}

function missing(field: string, line: number, what: string): Violation {
  return { kind: 'missing_required', field, line, message: `required field ${quote(field)} ${what}` };
}

/** null, a string of only whitespace, or an empty list. */
function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  return Array.isArray(value) && value.length === 0;
}

function checkValue(rule: FieldRule, field: FrontmatterField, out: Violation[]): void {
  if (rule.type === null) return;
  if (rule.type !== 'list') {
    checkScalar(rule, rule.type, field.value, { line: field.line }, out);
    return;
  }
  if (!Array.isArray(field.value)) {
    out.push(typeMismatch(rule.name, 'list', field.value, { line: field.line }));
    return;
  }
  checkLength(rule, field.value.length, 'item', field.line, out);
  field.value.forEach((item, index) => {
    const line = field.itemLines?.[index] ?? field.line;
    checkScalar(rule, rule.items, item, { line, index }, out);
  });
}

interface Place {
  line: number;
  /** Set for a list item. */
  index?: number;
}

function checkScalar(
  rule: FieldRule,
  type: ScalarType,
  value: unknown,
  place: Place,
  out: Violation[],
): void {
  if (!matchesType(value, type)) {
    out.push(typeMismatch(rule.name, type, value, place));
    return;
  }
  const name = placeName(rule.name, place);
  if (rule.pattern && typeof value === 'string' && !rule.pattern.test(value)) {
    out.push({
      kind: 'pattern_mismatch',
      field: rule.name,
      line: place.line,
      ...indexOf(place),
      pattern: rule.pattern.source,
      actual: value,
      message: `${name}: ${quote(value)} does not match the pattern ${quote(rule.pattern.source)}`,
    });
  }
  if (rule.allowed && !rule.allowed.includes(value as string | number)) {
    out.push({
      kind: 'not_in_enum',
      field: rule.name,
      line: place.line,
      ...indexOf(place),
      actual: value,
      allowed: rule.allowed,
      message: `${name}: ${quote(value)} is not one of ${rule.allowed.map(quote).join(', ')}`,
    });
  }
  if (type === 'string' && rule.type === 'string') {
    checkLength(rule, [...(value as string)].length, 'character', place.line, out);
  }
}

function checkLength(rule: FieldRule, length: number, unit: string, line: number, out: Violation[]): void {
  const { minLength: min, maxLength: max } = rule;
  const short = min !== null && length < min;
  const long = max !== null && length > max;
  if (!short && !long) return;
  const bound = short ? `fewer than min_length ${min}` : `more than max_length ${max}`;
  out.push({
    kind: 'length_out_of_range',
    field: rule.name,
    line,
    actual: length,
    min,
    max,
    message: `${quote(rule.name)}: ${length} ${unit}${length === 1 ? '' : 's'}, ${bound}`,
  });
}

function typeMismatch(field: string, expected: string, value: unknown, place: Place): Violation {
  const actual = kindOf(value);
  const name = placeName(field, place);
  const why =
    expected === 'date' && typeof value === 'string'
      ? `${quote(value)} is not a calendar date (YYYY-MM-DD)`
      : `expected ${expected}, got ${actual}${quoteHint(expected, value)}`;
  return {
    kind: 'type_mismatch',
    field,
    line: place.line,
    ...indexOf(place),
    expected,
    actual,
    message: `${name}: ${why}`,
  };
}

/** A number or boolean where text was expected is usually a value YAML read as something else. */
function quoteHint(expected: string, value: unknown): string {
  if (expected !== 'string' || (typeof value !== 'number' && typeof value !== 'boolean')) return '';
  return ' (put the value in quotes to make it text)';
}

/** The YAML kind of a value: null, string, number, boolean, list or mapping. */
function kindOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'object') return 'mapping';
  if (typeof value === 'bigint') return 'number';
  return typeof value;
}

function placeName(field: string, place: Place): string {
  return place.index === undefined ? quote(field) : `${quote(field)} item ${place.index + 1}`;
}

function indexOf(place: Place): { index?: number } {
  return place.index === undefined ? {} : { index: place.index };
}

/** A value as it is quoted in messages: JSON spelling, cut short when long. */
function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= QUOTE_LIMIT ? text : `${text.slice(0, QUOTE_LIMIT - 1)}…`;
}
