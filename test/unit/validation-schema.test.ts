import { describe, expect, it } from 'vitest';
import { compileValidationSchema } from '../../src/app/validate/validation-schema.js';
import { GrooveError } from '../../src/errors.js';

function compile(text: string) {
  return compileValidationSchema(text, 'kb/groove-schema.toml');
}

/** The SCHEMA_INVALID message a schema is refused with. */
function refusal(text: string): string {
  try {
    compile(text);
  } catch (error) {
    expect(error).toBeInstanceOf(GrooveError);
    expect((error as GrooveError).code).toBe('SCHEMA_INVALID');
    return (error as GrooveError).message;
  }
  throw new Error('the schema was accepted');
}

describe('compileValidationSchema', () => {
  it('compiles every rule, in the schema order', () => {
    const schema = compile(`
[options]
allow_unknown_fields = false

[fields.title]
required = true
type = "string"
min_length = 3
max_length = 80
pattern = "\\\\S"

[fields.tags]
type = "array"
items = "string"
enum = ["a", "b"]

[fields.priority]
type = "integer"
enum = [1, 2]

[fields."review date"]
type = "date"
allow_empty = true
`);
    expect(schema.allowUnknownFields).toBe(false);
    expect(schema.fields.map((f) => f.name)).toEqual(['title', 'tags', 'priority', 'review date']);
    const [title, tags, priority, review] = schema.fields;
    expect(title).toMatchObject({ required: true, type: 'string', minLength: 3, maxLength: 80 });
    expect(title!.pattern?.source).toBe('\\S');
    expect(tags).toMatchObject({ type: 'list', items: 'string', allowed: ['a', 'b'], required: false });
    expect(priority).toMatchObject({ type: 'integer', allowed: [1, 2] });
    expect(review).toMatchObject({ type: 'date', allowEmpty: true, pattern: null, allowed: null });
  });

  it('defaults: unknown fields allowed, no rules, lists of strings', () => {
    expect(compile('')).toEqual({ fields: [], allowUnknownFields: true });
    expect(compile('[fields.tags]\ntype = "list"\n').fields[0]).toMatchObject({ items: 'string' });
    expect(compile('[fields.any]\nrequired = true\n').fields[0]).toMatchObject({ type: null });
  });

  it('refuses an invalid regular expression, naming the field and its line', () => {
    expect(refusal('[fields.slug]\ntype = "string"\npattern = "([a-z"\n')).toMatch(
      /^schema "kb\/groove-schema.toml": key "fields.slug.pattern" \(line 3\) is not a valid regular expression: missing closing \]/,
    );
  });

  it.each([
    ['(a)\\1', 'a backreference (\\1)'],
    ['(?<x>a)\\k<x>', 'a named backreference (\\k<)'],
    ['^(?=x)a', 'a lookahead ((?=)'],
    ['^(?!x)a', 'a lookahead ((?!)'],
    ['(?<=x)a', 'a lookbehind ((?<=)'],
    ['(?<!x)a', 'a lookbehind ((?<!)'],
  ])('refuses %s, which only a backtracking engine runs, naming the field and line', (pattern, what) => {
    const text = `[fields.other]\ntype = "string"\n\n[fields."a slug"]\ntype = "list"\n  pattern = '${pattern}'\n`;
    expect(refusal(text)).toBe(
      `schema "kb/groove-schema.toml": key "fields."a slug".pattern" (line 6) uses ${what}, which schema patterns do not support: they run on a linear-time engine so that no pattern can hang validation`,
    );
  });

  it('takes JavaScript escapes and leaves lookalikes inside a character class alone', () => {
    const [accent, klass] = compile(
      "[fields.a]\ntype = 'string'\npattern = '^caf\\u00e9$'\n[fields.b]\ntype = 'string'\npattern = '^[(?=\\\\1]+$'\n",
    ).fields;
    expect(accent!.pattern!.test('café')).toBe(true);
    expect(accent!.pattern!.test('cafe')).toBe(false);
    expect(klass!.pattern!.test('(?=\\1')).toBe(true);
    expect(klass!.pattern!.test('x')).toBe(false);
  });

  it('names the key without a line when the schema writes the pattern in an inline table', () => {
    expect(refusal('[fields]\nslug = { type = "string", pattern = "(a)\\\\1" }\n')).toMatch(
      /^schema "kb\/groove-schema.toml": key "fields.slug.pattern" uses a backreference/,
    );
  });

  it.each([
    ['[fields.a\n', /not valid TOML at line 1: /],
    ['name = 1\n', /unknown key "name"/],
    ['[options]\nstrict = true\n', /unknown key "options.strict"/],
    ['[fields.a]\nrequird = true\n', /unknown key "fields.a.requird"/],
    ['fields = 3\n', /key "fields" must be a table/],
    ['[fields]\na = 1\n', /key "fields.a" must be a table/],
    ['[options]\nallow_unknown_fields = "no"\n', /key "options.allow_unknown_fields" must be true or false/],
    ['[fields.a]\nrequired = "yes"\n', /key "fields.a.required" must be true or false/],
    ['[fields.a]\ntype = "text"\n', /key "fields.a.type" is "text"; use one of string, number/],
    ['[fields.a]\ntype = 3\n', /key "fields.a.type" is 3;/],
    ['[fields.a]\ntype = "string"\nitems = "string"\n', /key "fields.a.items" needs type = "list"/],
    ['[fields.a]\ntype = "list"\nitems = "list"\n', /key "fields.a.items" must be one of string, number/],
    ['[fields.a]\ntype = "string"\nmin_length = -1\n', /key "fields.a.min_length" must be a whole number/],
    ['[fields.a]\ntype = "string"\nmax_length = 1.5\n', /key "fields.a.max_length" must be a whole number/],
    ['[fields.a]\ntype = "list"\nmin_length = 3\nmax_length = 2\n', /min_length" \(3\) is greater than/],
    ['[fields.a]\ntype = "integer"\nmax_length = 2\n', /applies to type "string" or "list" only/],
    ['[fields.a]\ntype = "string"\npattern = 1\n', /key "fields.a.pattern" \(line 3\) must be a string/],
    [
      '[fields.a]\ntype = "number"\npattern = "x"\n',
      /key "fields.a.pattern" \(line 3\) applies to type "string"/,
    ],
    ['[fields.a]\npattern = "x"\n', /key "fields.a.pattern" \(line 2\) applies to type "string"/],
    ['[fields.a]\ntype = "string"\nenum = []\n', /key "fields.a.enum" must be a non-empty array/],
    ['[fields.a]\ntype = "boolean"\nenum = [true]\n', /key "fields.a.enum" applies to type/],
    [
      '[fields.a]\ntype = "integer"\nenum = [1, "2"]\n',
      /key "fields.a.enum" item 2 \("2"\) is not of type integer/,
    ],
    ['[fields.a]\ntype = "date"\nenum = ["2023-02-29"]\n', /item 1 \("2023-02-29"\) is not of type date/],
    ['[fields.a]\ntype = "date"\nenum = [2024-01-01]\n', /item 1 is a TOML date; write dates as strings/],
    ['[fields."a b"]\ntype = "string"\nmax = 1\n', /unknown key "fields."a b".max"/],
  ])('refuses %j, naming the key', (text, message) => {
    expect(refusal(text)).toMatch(message);
  });
});
