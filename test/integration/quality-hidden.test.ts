// A search whose only matches the quality filter hides says so: how many keyword matches it hid and how to see
// them, in the JSON (CLI and MCP) and in the CLI's text, instead of an empty list with `legs.lexical: empty`.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { searchResponseToJson } from '../../src/app/search/search-types.js';
import { runGroove } from '../support/run-cli.js';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';

let kb: TempKb;
beforeEach(() => {
  kb = createTempKb({ 'short.md': 'zyxw works\n', 'guides/setup.md': noteText('setup') });
});
afterEach(() => kb.cleanup());

describe('matches hidden by the quality filter', () => {
  it('are counted, with the way to see them, when nothing else is shown', async () => {
    const facade = openKnowledgeBase(kb.config({ overrides: { model: 'none' } }));
    try {
      await facade.index();
      const hidden = await facade.search({ query: 'zyxw' });
      expect(hidden.results).toEqual([]);
      expect(searchResponseToJson(hidden).hidden_by_quality).toEqual({
        count: 1,
        min_quality: expect.any(Number),
        hint: expect.stringContaining('include_low_quality: true'),
      });
      const shown = await facade.search({ query: 'zyxw', includeLowQuality: true });
      expect(shown.results.map((hit) => hit.path)).toEqual(['short.md']);
      expect(searchResponseToJson(shown)).not.toHaveProperty('hidden_by_quality');
      // Nothing matched at all: nothing was hidden either.
      expect(searchResponseToJson(await facade.search({ query: 'qqqvvv' }))).not.toHaveProperty(
        'hidden_by_quality',
      );
    } finally {
      await facade.close();
    }
    const args = ['--kb-path', kb.kbPath, '--db-path', kb.dbPath, '--model', 'none', '--format', 'text'];
    const text = await runGroove(['search', 'zyxw', ...args], { cwd: kb.root });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /No results: the quality filter \(min_quality [\d.]+\) hid 1 keyword match; add --include-low-quality to see them\./,
    );
  });
});
