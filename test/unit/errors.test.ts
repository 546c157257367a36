import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  describeError,
  ERROR_CODES,
  GrooveError,
  storageFailure,
  underlyingCause,
} from '../../src/errors.js';

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

describe('storageFailure', () => {
  const failure = (code: string) =>
    storageFailure(Object.assign(new Error(`${code}: low-level words`), { code }), '/data/kb.db');

  it.each([
    ['SQLITE_FULL', 'STORAGE_FULL', 'no room to write the index "/data/kb.db": the disk is full'],
    ['ENOSPC', 'STORAGE_FULL', 'no room to write the index "/data/kb.db": the disk is full'],
    ['EDQUOT', 'STORAGE_FULL', 'no room to write the index "/data/kb.db": your disk quota is used up'],
    ['EROFS', 'STORAGE_DENIED', 'cannot write the index "/data/kb.db": the disk is mounted read-only'],
    [
      'SQLITE_READONLY_DBMOVED',
      'STORAGE_DENIED',
      'cannot write the index "/data/kb.db": the file or its folder is read-only',
    ],
  ])("%s is said in groove's words; the code is kept for GROOVE_DEBUG", (code, grooveCode, message) => {
    const error = failure(code)!;
    expect(error).toMatchObject({ code: grooveCode, message });
    expect(error.toLine()).not.toContain(code);
    expect(underlyingCause(error)).toBe(`${code}: ${code}: low-level words`);
  });

  it('leaves any other failure alone', () => {
    expect(failure('SQLITE_CORRUPT')).toBeNull();
    expect(storageFailure(new Error('no code'), '/data/kb.db')).toBeNull();
  });
});

describe('docs/errors.md', () => {
  it('lists exactly the codes of ERROR_CODES', () => {
    const docs = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/errors.md'), 'utf8');
    const documented = [...docs.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((match) => match[1]);
    expect([...documented].sort()).toEqual([...ERROR_CODES].sort());
  });
});
