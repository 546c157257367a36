import { describe, expect, it } from 'vitest';
import { displayLine, displayPath } from '../../src/core/display-path.js';
import { describeError, GrooveError } from '../../src/errors.js';

describe('displayPath', () => {
  it('escapes C0, DEL and C1 controls visibly', () => {
    expect(displayPath('a\nb\rc\td')).toBe('a\\nb\\rc\\td');
    expect(displayPath('\u0000\u001b[31m\u007f')).toBe('\\x00\\x1b[31m\\x7f');
    expect(displayPath('next\u0085line\u009b')).toBe('next\\u0085line\\u009b');
  });

  it('escapes bidi controls and the line and paragraph separators', () => {
    expect(displayPath('invoice-\u202egnp.md')).toBe('invoice-\\u202egnp.md');
    expect(displayPath('\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069')).toBe(
      '\\u061c\\u200e\\u200f\\u202a\\u202b\\u202c\\u202d\\u2066\\u2067\\u2068\\u2069',
    );
    expect(displayPath('a\u2028b\u2029c')).toBe('a\\u2028b\\u2029c');
  });

  it('leaves printable text alone, backslashes and non-Latin scripts included, and is idempotent', () => {
    for (const text of ['notes/日本語のメモ.md', 'C:\\Users\\me\\kb', 'émoji 🎸.md', 'עברית.md']) {
      expect(displayPath(text)).toBe(text);
    }
    const once = displayPath('x\n\u001b\u202e');
    expect(displayPath(once)).toBe(once);
  });

  it('keeps errors on one line whatever path they quote', () => {
    const error = new GrooveError('KB_NOT_FOUND', 'knowledge base folder "/tmp/a\nforged" does not exist', {
      hint: 'check kb_path\u001b[2J',
    });
    expect(error.toLine()).toBe(
      'knowledge base folder "/tmp/a\\nforged" does not exist (check kb_path\\x1b[2J)',
    );
    expect(describeError(new Error('raw\nerror'))).toBe('raw\\nerror');
    expect(displayLine('one\ntwo')).toBe('one\\ntwo');
  });
});
