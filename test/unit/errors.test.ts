import { describe, expect, it } from 'vitest';
import { describeError, GrooveError } from '../../src/errors.js';

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
