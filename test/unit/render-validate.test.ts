import { describe, expect, it } from 'vitest';
import type { ValidationReport } from '../../src/app/index.js';
import {
  escapeWorkflowData,
  escapeWorkflowProperty,
  renderValidationGithub,
  renderValidationText,
  validationReportToJson,
} from '../../src/cli/render-validate.js';

function report(overrides: Partial<ValidationReport> = {}): ValidationReport {
  return {
    kbPath: '/work/repo/kb',
    schemaPath: '/work/repo/kb/groove-schema.toml',
    schemaFound: true,
    strict: false,
    scanned: 3,
    files: [],
    skipped: [],
    warnings: [],
    ...overrides,
  };
}

describe('workflow-command escaping', () => {
  it('encodes %, CR and LF in a message, % first so nothing is encoded twice', () => {
    expect(escapeWorkflowData('100%25 done\r\n::error::forged')).toBe('100%2525 done%0D%0A::error::forged');
  });

  it('also encodes : and , in a property value', () => {
    expect(escapeWorkflowProperty('a,b:c%d\ne')).toBe('a%2Cb%3Ac%25d%0Ae');
  });
});

describe('renderValidationGithub', () => {
  it('one ::error per violation with file and line; hostile names and messages cannot forge a command', () => {
    const hostile = report({
      files: [
        {
          path: 'notes/a,b:c%.md',
          violations: [
            { kind: 'not_in_enum', field: 'status', line: 4, message: 'bad %\r\n::error file=x::forged' },
          ],
        },
      ],
      skipped: [{ path: 'notes/big.md', message: 'skipped notes/big.md: too large' }],
    });
    expect(renderValidationGithub(hostile, '/work/repo')).toBe(
      [
        '::warning file=kb/notes/big.md::skipped notes/big.md: too large',
        '::error file=kb/notes/a%2Cb%3Ac%25.md,line=4,title=groove validate%3A not_in_enum::bad %25%0D%0A::error file=x::forged',
        'checked 3 files against kb/groove-schema.toml: 1 violation in 1 file, 1 skipped',
        '',
      ].join('\n'),
    );
  });

  it('a missing default schema is a notice', () => {
    expect(renderValidationGithub(report({ schemaFound: false, scanned: 0 }), '/work/repo')).toBe(
      '::notice::no schema found at kb/groove-schema.toml; nothing to validate\n',
    );
  });
});

describe('renderValidationText and JSON', () => {
  const withViolation = report({
    strict: true,
    files: [
      {
        path: 'notes/x\u001b[31m.md',
        violations: [
          {
            kind: 'type_mismatch',
            field: 'tags',
            line: 5,
            index: 1,
            expected: 'string',
            actual: 'number',
            message: '"tags" item 2: expected string, got number',
          },
        ],
      },
    ],
  });

  it('prints path:line: message [kind], escaped for a terminal, then the summary', () => {
    expect(renderValidationText(withViolation, '/work/repo')).toBe(
      'kb/notes/x\\x1b[31m.md:5: "tags" item 2: expected string, got number [type_mismatch]\n' +
        'checked 3 files against kb/groove-schema.toml (undeclared keys reported): 1 violation in 1 file\n',
    );
    expect(renderValidationText(report(), '/work/repo')).toBe(
      'checked 3 files against kb/groove-schema.toml: no violations\n',
    );
  });

  it('JSON keeps raw paths and gives each kind its details', () => {
    expect(validationReportToJson(withViolation)).toEqual({
      kb_path: '/work/repo/kb',
      schema: '/work/repo/kb/groove-schema.toml',
      schema_found: true,
      strict: true,
      scanned: 3,
      violated: 1,
      ok: 2,
      files: [
        {
          path: 'notes/x\u001b[31m.md',
          violations: [
            {
              kind: 'type_mismatch',
              field: 'tags',
              line: 5,
              index: 1,
              expected: 'string',
              actual: 'number',
              message: '"tags" item 2: expected string, got number',
            },
          ],
        },
      ],
      skipped: [],
      warnings: [],
    });
  });
});
