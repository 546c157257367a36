import { describe, expect, it } from 'vitest';
import { chunkModelInput, chunkModelText } from '../../src/document/chunk-model-input.js';

describe('chunk model input', () => {
  it('puts the breadcrumb before the content only when contextual and present', () => {
    expect(chunkModelText('A > B', 'body', true)).toBe('A > B\n\nbody');
    expect(chunkModelText('A > B', 'body', false)).toBe('body');
    expect(chunkModelText('', 'body', true)).toBe('body');
  });

  it('cuts at maxChars like a plain slice for BMP text', () => {
    expect(chunkModelInput('ctx', 'abcdef', { contextual: true, maxChars: 7 })).toBe('ctx\n\nab');
    expect(chunkModelInput('', '日本語のテキスト', { contextual: false, maxChars: 3 })).toBe('日本語');
  });

  it('never leaves half of a surrogate pair at the cut', () => {
    expect(chunkModelInput('', 'ab😀cd', { contextual: false, maxChars: 3 })).toBe('ab');
  });
});
