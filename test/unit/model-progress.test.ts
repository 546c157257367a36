import { describe, expect, it } from 'vitest';
import { createProgressRenderer, formatProgressLine } from '../../src/models/model-progress.js';

function capture(isTTY: boolean) {
  const lines: string[] = [];
  return { stream: { isTTY, write: (text: string) => lines.push(text) }, lines };
}

describe('download progress', () => {
  it('formats a bar with percent and megabytes', () => {
    const line = formatProgressLine({
      kind: 'download-progress',
      model: 'm',
      file: 'f',
      loadedBytes: 50e6,
      totalBytes: 100e6,
    });
    expect(line).toBe('downloading m f [############............] 50% 50.0/100.0 MB');
  });

  it('prints sparse lines when stderr is not a terminal', () => {
    const { stream, lines } = capture(false);
    const render = createProgressRenderer(stream);
    render({ kind: 'download-start', model: 'm', file: 'f' });
    for (let loaded = 0; loaded <= 100; loaded += 5) {
      render({ kind: 'download-progress', model: 'm', file: 'f', loadedBytes: loaded, totalBytes: 100 });
    }
    render({ kind: 'download-done', model: 'm', file: 'f' });
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe('downloading m f\n');
    expect(lines.slice(1, 4).map((l) => l.match(/\d+%/)?.[0])).toEqual(['25%', '50%', '75%']);
    expect(lines[4]).toBe('downloaded m f\n');
  });

  it('announces nothing for a download that never receives a byte', () => {
    const { stream, lines } = capture(false);
    const render = createProgressRenderer(stream);
    render({ kind: 'download-start', model: 'm', file: 'f' });
    expect(lines).toEqual([]);
    render({ kind: 'download-start', model: 'm', file: 'g' });
    render({ kind: 'download-done', model: 'm', file: 'g' });
    expect(lines).toEqual(['downloading m g\n', 'downloaded m g\n']);
  });

  it('redraws one line on a terminal, throttled', () => {
    const { stream, lines } = capture(true);
    let now = 0;
    const render = createProgressRenderer(stream, { now: () => now, redrawIntervalMs: 100 });
    render({ kind: 'download-progress', model: 'm', file: 'f', loadedBytes: 1, totalBytes: 10 });
    render({ kind: 'download-progress', model: 'm', file: 'f', loadedBytes: 2, totalBytes: 10 });
    now = 150;
    render({ kind: 'download-progress', model: 'm', file: 'f', loadedBytes: 3, totalBytes: 10 });
    expect(lines).toHaveLength(2);
    expect(lines.every((l) => l.startsWith('\r'))).toBe(true);
  });
});
