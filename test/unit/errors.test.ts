import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeError, ERROR_CODES, GrooveError } from '../../src/errors.js';

describe('GrooveError', () => {
  it('renders message and hint on one line', () => {
    const error = new GrooveError('KB_NOT_FOUND', 'knowledge base "x" does not exist', {
      hint: 'check --kb-path',
    });
    expect(error.toLine()).toBe('knowledge base "x" does not exist (check --kb-path)');
    expect(describeError(error)).not.toContain('\n');
    expect(error.code).toBe('KB_NOT_FOUND');
  });
});

describe('docs/errors.md', () => {
  it('lists exactly the codes of ERROR_CODES', () => {
    const docs = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/errors.md'), 'utf8');
    const documented = [...docs.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((match) => match[1]);
    expect([...documented].sort()).toEqual([...ERROR_CODES].sort());
  });
});
