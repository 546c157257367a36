// The text table of `eval --budget`: one line per budget, both answers and the paired difference.
import { describe, expect, it } from 'vitest';
import { renderBudgetText } from '../../src/cli/render-budget.js';
import { comparePaired } from '../../src/measure/paired-ci.js';

describe('renderBudgetText', () => {
  it('prints nothing without budgets and one line per budget with the interval', () => {
    expect(renderBudgetText({})).toBe('');
    const text = renderBudgetText({
      budget: [
        {
          maxTokens: 500,
          passages: { recall: 0.8, meanTokens: 480.4 },
          wholeChunks: { recall: 0.6, meanTokens: 499.6 },
          difference: comparePaired([0.2, 0.2, 0.3, 0.1]),
        },
      ],
    });
    const line = text.split('\n').find((l) => l.trim().startsWith('500'))!;
    expect(line).toMatch(/80\.0% \(480\)/);
    expect(line).toMatch(/60\.0% \(500\)/);
    expect(line).toMatch(/\+20\.0 pts \[\+\d+\.\d, \+\d+\.\d\] improved/);
  });
});
