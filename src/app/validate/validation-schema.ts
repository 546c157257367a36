// The frontmatter schema (`groove-schema.toml`): TOML text → rules, with every mistake refused by the key it
// is under. `[fields.<name>]` tables hold one field's rules; `[options]` holds settings for the whole schema.
import { parse as parseToml } from 'smol-toml';
import { isCalendarDate } from '../../core/calendar-date.js';
import { GrooveError } from '../../errors.js';
import { compileSchemaPattern, type SchemaPattern } from './schema-pattern.js';

/** Types a single value can have; `date` is a `YYYY-MM-DD` string naming a day that exists. */
export type ScalarType = 'string' | 'number' | 'integer' | 'boolean' | 'date';
/** `list` is a YAML sequence whose items all have the field's `items` type. */
export type FieldType = ScalarType | 'list';

export interface FieldRule {
  name: string;
  required: boolean;
  /** An empty value (null, a blank string, an empty list) counts as present instead of absent. */
  allowEmpty: boolean;
  /** null: any value is accepted (only `required` and `allow_empty` apply). */
  type: FieldType | null;
  /** The type of a list's items; `string` unless the schema says otherwise. */
  items: ScalarType;
  /** Unanchored; tested against a string or date value, or each item of a list of them (linear time). */
  pattern: SchemaPattern | null;
  /** Exact values allowed (each item's, for a list). */
  allowed: readonly (string | number)[] | null;
  /** Characters of a string, items of a list. */
  minLength: number | null;
  maxLength: number | null;
}

export interface ValidationSchema {
  /** In the schema's order. */
  fields: readonly FieldRule[];
  /** false: keys the schema does not declare are violations (as with `--strict`). */
  allowUnknownFields: boolean;
}

const SCALAR_TYPES: readonly ScalarType[] = ['string', 'number', 'integer', 'boolean', 'date'];
/** `array` is accepted as another spelling of `list`. */
const TYPE_NAMES: Readonly<Record<string, FieldType>> = {
  string: 'string',
  number: 'number',
  integer: 'integer',
  boolean: 'boolean',
  date: 'date',
  list: 'list',
  array: 'list',
};
const TOP_KEYS = new Set(['fields', 'options']);
const OPTION_KEYS = new Set(['allow_unknown_fields']);
const RULE_KEYS = new Set([
  'required',
  'allow_empty',
  'type',
  'items',
  'pattern',
  'enum',
  'min_length',
  'max_length',
]);

/** Parse and check a schema; `source` names the file in messages. Throws SCHEMA_INVALID naming the key. */
export function compileValidationSchema(text: string, source: string): ValidationSchema {
  const invalid = (message: string, hint?: string) =>
    new GrooveError('SCHEMA_INVALID', `schema "${source}": ${message}`, {
      hint: hint ?? 'fix the schema file; the README section "groove validate" describes its format',
    });
  let raw: Record<string, unknown>;
  try {
    raw = parseToml(text) as Record<string, unknown>;
  } catch (cause) {
    const reason = (cause as Error).message.split('\n')[0];
    const line = (cause as { line?: unknown }).line;
    throw invalid(`not valid TOML${typeof line === 'number' ? ` at line ${line}` : ''}: ${reason}`);
  }
  rejectUnknownKeys(raw, TOP_KEYS, '', invalid);
  const options = tableAt(raw, 'options', invalid);
  rejectUnknownKeys(options, OPTION_KEYS, 'options.', invalid);
  const allowUnknownFields = booleanAt(options, 'allow_unknown_fields', 'options.', invalid) ?? true;
  const fieldTables = tableAt(raw, 'fields', invalid);
  const fields = Object.keys(fieldTables).map((name) =>
    compileField(name, tableAt(fieldTables, name, invalid, 'fields.'), invalid, text),
  );
  return { fields, allowUnknownFields };
}

type Invalid = (message: string, hint?: string) => GrooveError;

function compileField(
  name: string,
  table: Record<string, unknown>,
  invalid: Invalid,
  text: string,
): FieldRule {
  const at = `${keyPath('fields.', name)}.`;
  rejectUnknownKeys(table, RULE_KEYS, at, invalid);
  const type = typeAt(table, 'type', at, TYPE_NAMES, invalid);
  const items = typeAt(table, 'items', at, TYPE_NAMES, invalid);
  if (items !== null && type !== 'list') throw invalid(`key "${at}items" needs type = "list"`);
  if (items === 'list') throw invalid(`key "${at}items" must be one of ${SCALAR_TYPES.join(', ')}`);
  const rule: FieldRule = {
    name,
    required: booleanAt(table, 'required', at, invalid) ?? false,
    allowEmpty: booleanAt(table, 'allow_empty', at, invalid) ?? false,
    type,
    items: items ?? 'string',
    pattern: null,
    allowed: null,
    minLength: lengthAt(table, 'min_length', at, invalid),
    maxLength: lengthAt(table, 'max_length', at, invalid),
  };
  const valueType = type === 'list' ? rule.items : type;
  if (rule.minLength !== null || rule.maxLength !== null) {
    if (type !== 'string' && type !== 'list') {
      throw invalid(`key "${at}min_length"/"max_length" applies to type "string" or "list" only`);
    }
    if (rule.minLength !== null && rule.maxLength !== null && rule.minLength > rule.maxLength) {
      throw invalid(
        `key "${at}min_length" (${rule.minLength}) is greater than max_length (${rule.maxLength})`,
      );
    }
  }
  if (table.pattern !== undefined) {
    const line = lineOfPattern(text, name);
    const key = `key "${at}pattern"${line === null ? '' : ` (line ${line})`}`;
    rule.pattern = patternAt(table.pattern, key, valueType, invalid);
  }
  if (table.enum !== undefined) rule.allowed = enumAt(table.enum, at, valueType, invalid);
  return rule;
}

function patternAt(
  value: unknown,
  key: string,
  valueType: FieldType | null,
  invalid: Invalid,
): FieldRule['pattern'] {
  if (typeof value !== 'string') throw invalid(`${key} must be a string (a regular expression)`);
  if (valueType !== 'string' && valueType !== 'date') {
    throw invalid(`${key} applies to type "string", "date" or a list of them only`);
  }
  const compiled = compileSchemaPattern(value);
  if (compiled.ok) return compiled.pattern;
  throw invalid(
    `${key} ${compiled.reason}`,
    'write a regular expression without surrounding slashes, backreferences or lookaround (the README section "groove validate" lists the syntax)',
  );
}

/**
 * The line of `pattern = …` in the table `[fields.<name>]` of the schema text, for messages; null when the schema
 * writes it another way (an inline table, a dotted key), where the message names the key alone.
 */
function lineOfPattern(text: string, fieldName: string): number | null {
  const lines = text.split(/\r?\n/);
  const assignment = /^\s*["']?pattern["']?\s*=/;
  let inField = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*\[/.test(line)) inField = fieldOfHeader(line) === fieldName;
    else if (inField && assignment.test(line)) return i + 1;
  }
  return null;
}

/** The field a `[fields.<name>]` header line opens, or null for any other line. */
function fieldOfHeader(line: string): string | null {
  try {
    const fields = (parseToml(line) as { fields?: Record<string, unknown> }).fields;
    const names = fields ? Object.keys(fields) : [];
    return names.length === 1 ? names[0]! : null;
  } catch {
    return null;
  }
}

function enumAt(
  value: unknown,
  at: string,
  valueType: FieldType | null,
  invalid: Invalid,
): readonly (string | number)[] {
  if (!Array.isArray(value) || value.length === 0) throw invalid(`key "${at}enum" must be a non-empty array`);
  if (valueType === null || valueType === 'boolean' || valueType === 'list') {
    throw invalid(`key "${at}enum" applies to type "string", "number", "integer", "date" or a list of them`);
  }
  value.forEach((item, index) => {
    if (item instanceof Date) {
      throw invalid(
        `key "${at}enum" item ${index + 1} is a TOML date; write dates as strings, e.g. "2024-01-31"`,
      );
    }
    if (!matchesType(item, valueType)) {
      throw invalid(
        `key "${at}enum" item ${index + 1} (${describeTomlValue(item)}) is not of type ${valueType}`,
      );
    }
  });
  return value as (string | number)[];
}

/** Whether a frontmatter value has a scalar type (also used to check enum items). */
export function matchesType(value: unknown, type: ScalarType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'date':
      return typeof value === 'string' && isCalendarDate(value);
  }
}

function typeAt(
  table: Record<string, unknown>,
  key: string,
  at: string,
  names: Readonly<Record<string, FieldType>>,
  invalid: Invalid,
): FieldType | null {
  const value = table[key];
  if (value === undefined) return null;
  const type = typeof value === 'string' && Object.hasOwn(names, value) ? names[value] : undefined;
  if (type === undefined) {
    throw invalid(
      `key "${at}${key}" is ${describeTomlValue(value)}; use one of ${Object.keys(names).join(', ')}`,
    );
  }
  return type;
}

function booleanAt(
  table: Record<string, unknown>,
  key: string,
  at: string,
  invalid: Invalid,
): boolean | null {
  const value = table[key];
  if (value === undefined) return null;
  if (typeof value !== 'boolean') throw invalid(`key "${at}${key}" must be true or false`);
  return value;
}

function lengthAt(table: Record<string, unknown>, key: string, at: string, invalid: Invalid): number | null {
  const value = table[key];
  if (value === undefined) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw invalid(`key "${at}${key}" must be a whole number of 0 or more`);
  }
  return value;
}

function tableAt(
  parent: Record<string, unknown>,
  key: string,
  invalid: Invalid,
  prefix = '',
): Record<string, unknown> {
  const value = parent[key];
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) {
    throw invalid(`key "${keyPath(prefix, key)}" must be a table`);
  }
  return value as Record<string, unknown>;
}

function rejectUnknownKeys(
  table: Record<string, unknown>,
  known: ReadonlySet<string>,
  at: string,
  invalid: Invalid,
): void {
  for (const key of Object.keys(table)) {
    if (!known.has(key)) {
      throw invalid(
        `unknown key "${at}${key}" (known: ${[...known].join(', ')})`,
        'remove it or check its spelling',
      );
    }
  }
}

/** `fields.title`, or `fields."my key"` for a name that is not a bare TOML key. */
function keyPath(prefix: string, name: string): string {
  return /^[A-Za-z0-9_-]+$/.test(name) ? `${prefix}${name}` : `${prefix}${JSON.stringify(name)}`;
}

function describeTomlValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return 'a TOML date';
  if (typeof value === 'object' && value !== null) return 'a table';
  return String(value);
}
