import { describe, expect, it } from 'vitest';
import { type Violation, validateFrontmatter } from '../../src/app/validate/validate-frontmatter.js';
import { compileValidationSchema } from '../../src/app/validate/validation-schema.js';

function check(schemaToml: string, frontmatter: string, strict = false): Violation[] {
  const schema = compileValidationSchema(schemaToml, 'schema.toml');
  return validateFrontmatter(`---\n${frontmatter}---\n# Body\n`, schema, { strict });
}

/** kind, field and line of each violation: what a test usually pins. */
function brief(violations: Violation[]): string[] {
  return violations.map(
    (v) => `${v.line} ${v.kind} ${v.field}${v.index === undefined ? '' : `[${v.index}]`}`,
  );
}

describe('validateFrontmatter: required and allow_empty', () => {
  const schema = '[fields.title]\nrequired = true\n[fields.note]\ntype = "string"\n';

  it('a missing required field is reported at the opening fence', () => {
    expect(check(schema, 'other: 1\n')).toEqual([
      { kind: 'missing_required', field: 'title', line: 1, message: 'required field "title" is missing' },
    ]);
  });

  it('a file without frontmatter misses every required field, at line 1', () => {
    const compiled = compileValidationSchema(schema, 'schema.toml');
    expect(brief(validateFrontmatter('# Just a body\n', compiled, { strict: true }))).toEqual([
      '1 missing_required title',
    ]);
  });

  it('an empty value (null, blank string, empty list) counts as absent, reported at its key', () => {
    for (const empty of ['', ' ""', " '  '", ' []']) {
      const found = check(schema, `x: 1\ntitle:${empty}\n`);
      expect(found).toEqual([
        { kind: 'missing_required', field: 'title', line: 3, message: 'required field "title" is empty' },
      ]);
    }
  });

  it('allow_empty accepts an empty required value; an optional empty value is accepted anyway', () => {
    expect(check('[fields.title]\nrequired = true\nallow_empty = true\n', 'title: ""\n')).toEqual([]);
    expect(check('[fields.title]\nrequired = true\nallow_empty = true\n', 'x: 1\n')).toHaveLength(1);
    expect(check(schema, 'title: t\nnote:\n')).toEqual([]);
  });
});

describe('validateFrontmatter: types', () => {
  const schema = `
[fields.s]
type = "string"
[fields.n]
type = "number"
[fields.i]
type = "integer"
[fields.b]
type = "boolean"
[fields.d]
type = "date"
[fields.l]
type = "list"
[fields.li]
type = "list"
items = "integer"
`;

  it('accepts values of the declared types', () => {
    const good = 's: text\nn: 1.5\ni: -3\nb: false\nd: 2024-02-29\nl: [a, b]\nli:\n  - 1\n  - 2\n';
    expect(check(schema, good)).toEqual([]);
  });

  it('reports each wrong type once, with expected and actual', () => {
    const bad = 's: 1.10\nn: .nan\ni: 1.5\nb: "yes"\nd: 2023-02-29\nl: a, b\nli: [1, x]\n';
    const found = check(schema, bad);
    expect(brief(found)).toEqual([
      '2 type_mismatch s',
      '3 type_mismatch n',
      '4 type_mismatch i',
      '5 type_mismatch b',
      '6 type_mismatch d',
      '7 type_mismatch l',
      '8 type_mismatch li[1]',
    ]);
    expect(found[0]).toMatchObject({ expected: 'string', actual: 'number' });
    expect(found[0]!.message).toBe(
      '"s": expected string, got number (put the value in quotes to make it text)',
    );
    expect(found[2]).toMatchObject({ expected: 'integer', actual: 'number' });
    expect(found[4]!.message).toBe('"d": "2023-02-29" is not a calendar date (YYYY-MM-DD)');
    expect(found[5]).toMatchObject({ expected: 'list', actual: 'string' });
    expect(found[6]).toMatchObject({ index: 1, expected: 'integer', actual: 'string' });
  });

  it('a date is exactly YYYY-MM-DD naming a real day', () => {
    for (const d of ['2024-1-05', '2024-13-01', '2024-01-05T10:00:00Z', '20240105']) {
      expect(brief(check(schema, `d: ${d}\n`))).toEqual(['2 type_mismatch d']);
    }
  });

  it('a mapping is not a string', () => {
    expect(check(schema, 's:\n  k: v\n')[0]).toMatchObject({ actual: 'mapping', line: 2 });
  });
});

describe('validateFrontmatter: pattern, enum, lengths', () => {
  it('pattern is unanchored and applies to each item of a list', () => {
    const schema =
      '[fields.slug]\ntype = "string"\npattern = "[a-z]+"\n[fields.tags]\ntype = "list"\npattern = "^[a-z]+$"\n';
    expect(check(schema, 'slug: "ABC def"\n')).toEqual([]);
    const found = check(schema, 'slug: "123"\ntags:\n  - ok\n  - Not Ok\n');
    expect(brief(found)).toEqual(['2 pattern_mismatch slug', '5 pattern_mismatch tags[1]']);
    expect(found[0]).toMatchObject({ pattern: '[a-z]+', actual: '123' });
    expect(found[1]!.message).toBe('"tags" item 2: "Not Ok" does not match the pattern "^[a-z]+$"');
  });

  it('enum is an exact match, per item for lists, numbers included', () => {
    const schema = `
[fields.status]
type = "string"
enum = ["draft", "published"]
[fields.level]
type = "integer"
enum = [1, 2, 3]
[fields.kinds]
type = "list"
enum = ["a", "b"]
`;
    expect(check(schema, 'status: draft\nlevel: 2\nkinds: [a, b, a]\n')).toEqual([]);
    const found = check(schema, 'status: Draft\nlevel: 4\nkinds: [a, c]\n');
    expect(brief(found)).toEqual(['2 not_in_enum status', '3 not_in_enum level', '4 not_in_enum kinds[1]']);
    expect(found[0]).toMatchObject({ actual: 'Draft', allowed: ['draft', 'published'] });
    expect(found[0]!.message).toBe('"status": "Draft" is not one of "draft", "published"');
  });

  it('min_length and max_length count characters of a string and items of a list', () => {
    const schema =
      '[fields.title]\ntype = "string"\nmin_length = 2\nmax_length = 3\n[fields.tags]\ntype = "list"\nmin_length = 1\nmax_length = 2\n';
    // Code points, not UTF-16 units: an emoji is one character.
    expect(check(schema, 'title: 日本😀\ntags: [a]\n')).toEqual([]);
    const found = check(schema, 'title: 日本語です\ntags: [a, b, c]\n');
    expect(found).toEqual([
      {
        kind: 'length_out_of_range',
        field: 'title',
        line: 2,
        actual: 5,
        min: 2,
        max: 3,
        message: '"title": 5 characters, more than max_length 3',
      },
      {
        kind: 'length_out_of_range',
        field: 'tags',
        line: 3,
        actual: 3,
        min: 1,
        max: 2,
        message: '"tags": 3 items, more than max_length 2',
      },
    ]);
    expect(check(schema, 'title: x\n')[0]!.message).toBe('"title": 1 character, fewer than min_length 2');
  });

  it('a value of the wrong type gets only the type violation', () => {
    const schema = '[fields.t]\ntype = "string"\npattern = "^x"\nenum = ["x"]\nmin_length = 5\n';
    expect(brief(check(schema, 't: 12\n'))).toEqual(['2 type_mismatch t']);
  });
});

describe('validateFrontmatter: undeclared keys and broken frontmatter', () => {
  const schema = '[fields.title]\ntype = "string"\n';

  it('undeclared keys are ignored unless --strict or allow_unknown_fields = false', () => {
    expect(check(schema, 'title: t\nextra: 1\n')).toEqual([]);
    expect(check(schema, 'title: t\nextra: 1\n', true)).toEqual([
      {
        kind: 'undeclared_field',
        field: 'extra',
        line: 3,
        message: 'field "extra" is not declared in the schema',
      },
    ]);
    const closed = `[options]\nallow_unknown_fields = false\n${schema}`;
    expect(brief(check(closed, 'title: t\nextra: 1\n'))).toEqual(['3 undeclared_field extra']);
  });

  it('frontmatter that does not parse is one violation at the YAML error line', () => {
    expect(check(schema, 'title: t\ntitle: u\n', true)).toEqual([
      {
        kind: 'frontmatter_unparsed',
        field: null,
        line: 3,
        message: expect.stringMatching(/^invalid YAML frontmatter at line 3, column 1: /),
      },
    ]);
  });

  it('violations come in line order', () => {
    const two = '[fields.z]\nrequired = true\n[fields.a]\ntype = "integer"\n';
    expect(brief(check(two, 'b: 1\na: x\n', true))).toEqual([
      '1 missing_required z',
      '2 undeclared_field b',
      '3 type_mismatch a',
    ]);
  });
});
