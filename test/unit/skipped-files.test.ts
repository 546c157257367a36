// The record of refused files in index_meta: written whole up to its cap (with the full total), and read back
// defensively — anything that is not such a record reads as none.
import { describe, expect, it } from 'vitest';
import { decodeSkippedFiles, encodeSkippedFiles, MAX_RECORDED_SKIPS } from '../../src/store/skipped-files.js';

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
