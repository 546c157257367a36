// Deeply nested YAML from users' files: frontmatter and golden sets refuse it with one clear reason whether the
// parser runs out of stack (tens of thousands of levels) or parses it (a hundred levels).
import { describe, expect, it } from 'vitest';
import { parseGoldenYaml } from '../../src/app/golden/golden-file.js';
import { parseGoldenMeta } from '../../src/app/golden/golden-meta.js';
import { splitFrontmatter } from '../../src/document/frontmatter.js';
import { nestsDeeperThan } from '../../src/document/yaml-depth.js';
import type { GrooveError } from '../../src/errors.js';

const flow = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
const block = (levels: number) =>
  Array.from({ length: levels }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' leaf';

function goldenError(text: string): GrooveError {
  try {
    parseGoldenYaml(text, 'kb/.groove-eval.yml');
  } catch (error) {
    return error as GrooveError;
  }
  throw new Error('expected the golden file to be refused');
}

describe('deeply nested YAML', () => {
  for (const [name, nested] of [
    ['flow, parser out of stack', flow(100_000)],
    ['flow, parsed', flow(100)],
    ['block, parsed', block(100)],
    ['block, parser out of stack', block(3000)],
  ] as const) {
    it(`frontmatter (${name}): a frontmatter error, body kept`, () => {
      const result = splitFrontmatter(
        `---\ntitle: t\nextra: ${nested.includes('\n') ? `\n${nested}` : nested}\n---\nbody text\n`,
      );
      expect(result.error).toMatch(/nested deeper than 64 levels/);
      expect(result.error).not.toMatch(/call stack/i);
      expect(result.body).toBe('body text\n');
    });

    it(`golden file (${name}): GOLDEN_INVALID naming the file`, () => {
      const error = goldenError(
        `queries:\n  - query: q\n    expected: ${nested.includes('\n') ? `\n${nested}` : nested}\n`,
      );
      expect(error.code).toBe('GOLDEN_INVALID');
      expect(error.message).toContain('kb/.groove-eval.yml');
      expect(error.message).toMatch(/nested deeper than 64 levels/);
    });
  }

  it('golden sidecar: GOLDEN_INVALID without the stack message', () => {
    expect(() => parseGoldenMeta(`created: ${flow(100_000)}\n`, 'meta.yml')).toThrow(
      /nested deeper than 64 levels/,
    );
  });

  it('counts depth without recursion and allows ordinary nesting', () => {
    expect(nestsDeeperThan({ a: [{ b: [1, 2] }] })).toBe(false);
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(nestsDeeperThan(deep)).toBe(true);
    expect(splitFrontmatter('---\ntags: [a, b]\nextra: {x: {y: [1, 2]}}\n---\nbody\n').error).toBeNull();
  });
});
