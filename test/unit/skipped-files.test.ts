// The record of refused files in index_meta: written whole up to its cap (with the full total), and read back
// defensively — anything that is not such a record reads as none.
import { describe, expect, it } from 'vitest';
import {
  decodeSkippedFiles,
  encodeSkippedFiles,
  MAX_RECORDED_SKIPS,
  mergeSkippedFiles,
} from '../../src/store/skipped-files.js';

describe('skipped_files record', () => {
  it('round-trips the files and their reasons', () => {
    const files = [
      { path: 'a.md', reason: 'skipped a.md: it has no text to index' },
      { path: 'b.md', reason: 'skipped b.md: too large' },
    ];
    expect(decodeSkippedFiles(encodeSkippedFiles(files))).toEqual({ total: 2, files });
    expect(decodeSkippedFiles(encodeSkippedFiles([]))).toEqual({ total: 0, files: [] });
  });

  it('keeps at most MAX_RECORDED_SKIPS files but the whole total', () => {
    const files = Array.from({ length: MAX_RECORDED_SKIPS + 5 }, (_, i) => ({
      path: `${i}.md`,
      reason: 'x',
    }));
    const record = decodeSkippedFiles(encodeSkippedFiles(files));
    expect(record?.total).toBe(MAX_RECORDED_SKIPS + 5);
    expect(record?.files).toHaveLength(MAX_RECORDED_SKIPS);
  });

  it('reads anything else as no record', () => {
    for (const text of [undefined, '', 'not json', 'null', '[]', '{"total":"2","files":[]}', '{"total":1}'])
      expect(decodeSkippedFiles(text), String(text)).toBeNull();
    expect(decodeSkippedFiles('{"total":1,"files":[{"path":1},{"path":"a.md","reason":"r"}]}')).toEqual({
      total: 1,
      files: [{ path: 'a.md', reason: 'r' }],
    });
  });
});

describe('mergeSkippedFiles (a run over some paths only)', () => {
  it("replaces those paths' entries and keeps the others, moving the total by what changed", () => {
    const previous = {
      total: 3,
      files: [
        { path: 'a.md', reason: 'r1' },
        { path: 'b.md', reason: 'r2' },
        { path: 'c.md', reason: 'r3' },
      ],
    };
    const merged = mergeSkippedFiles(previous, new Set(['b.md', 'd.md']), [{ path: 'd.md', reason: 'r4' }]);
    expect(merged).toEqual({
      total: 3,
      files: [
        { path: 'a.md', reason: 'r1' },
        { path: 'c.md', reason: 'r3' },
        { path: 'd.md', reason: 'r4' },
      ],
    });
    expect(mergeSkippedFiles(null, new Set(['x.md']), [])).toEqual({ total: 0, files: [] });
    // A capped record counts files it does not list: they stay counted.
    const capped = { total: 10, files: [{ path: 'a.md', reason: 'r1' }] };
    expect(mergeSkippedFiles(capped, new Set(['a.md']), []).total).toBe(9);
  });
});
