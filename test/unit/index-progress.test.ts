// `groove index --progress`: a bar per stage with rate and ETA on a TTY, plain lines per 5% step elsewhere.
import { describe, expect, it } from 'vitest';
import type { IndexEvent } from '../../src/app/index.js';
import { createIndexProgress, formatDuration } from '../../src/cli/index-progress.js';

function run(events: { at: number; event: IndexEvent }[], tty: boolean): string {
  let now = 0;
  let out = '';
  const sink = createIndexProgress((text) => (out += text), { tty, now: () => now });
  for (const { at, event } of events) {
    now = at;
    sink(event);
  }
  return out;
}

const embedding = (total: number, perSecond: number, step: number) =>
  Array.from({ length: total / step }, (_, i) => ({
    at: 1000 + ((i + 1) * step * 1000) / perSecond,
    event: { kind: 'embedded', done: (i + 1) * step, total, elapsedMs: 0 } as IndexEvent,
  }));

describe('index progress', () => {
  it('plain: a line per 5% step of each stage, with the rate and the time left', () => {
    const out = run(
      [
        { at: 0, event: { kind: 'start', totalFiles: 2, model: 'm' } },
        { at: 10, event: { kind: 'file', path: 'a.md', action: 'indexed', chunks: 1 } },
        { at: 20, event: { kind: 'unchanged', path: 'b.md' } },
        { at: 1000, event: { kind: 'embed-start', total: 1000 } },
        ...embedding(1000, 10, 10),
      ],
      false,
    );
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toBe('Files: 0/2 (0%)');
    expect(lines).toContain('Files: 2/2 (100%)');
    const embeddingLines = lines.filter((l) => l.startsWith('Embedding: '));
    expect(embeddingLines).toHaveLength(21);
    // 50 chunks after 5 s at 10 chunks/s: 950 left take 1m 35s.
    expect(embeddingLines[1]).toBe('Embedding: 50/1000 (5%), 10.0 chunks/s, ETA 1m 35s');
    expect(embeddingLines.at(-1)).toBe('Embedding: 1000/1000 (100%), 10.0 chunks/s');
    expect(out).not.toContain('\r');
  });

  it('TTY: one redrawn bar per stage, warnings on their own lines', () => {
    const out = run(
      [
        { at: 0, event: { kind: 'start', totalFiles: 1, model: 'm' } },
        { at: 5, event: { kind: 'warning', message: 'something odd' } },
        { at: 10, event: { kind: 'file', path: 'a.md', action: 'indexed', chunks: 1 } },
        { at: 1000, event: { kind: 'embed-start', total: 100 } },
        ...embedding(100, 4, 50),
      ],
      true,
    );
    expect(out).toContain('\n  warning: something odd\n');
    const frames = out.split('\r').map((frame) => frame.replace(/\x1b\[K\n?$/, ''));
    expect(frames).toContain('Files     [####################] 1/1 100%');
    expect(frames).toContain('Embedding [##########----------] 50/100 50%  4.0 chunks/s  ETA 13s');
    expect(frames.at(-1)).toBe('Embedding [####################] 100/100 100%  4.0 chunks/s');
  });

  it('formats durations as a person reads them', () => {
    expect(formatDuration(45.4)).toBe('45s');
    expect(formatDuration(17 * 60 + 28)).toBe('17m 28s');
    expect(formatDuration(2 * 3600 + 5 * 60)).toBe('2h 05m');
  });
});
