import { describe, expect, it } from 'vitest';
import { logEvents } from '../../src/app/serve/live-sync.js';

describe('the live sync log', () => {
  it('logs a warning once per live sync, and every skip of every run', () => {
    const lines: string[] = [];
    const warned = new Set<string>();
    const modelMissing = 'the model is not available yet; its chunks wait for the model';
    for (let run = 0; run < 3; run++) {
      const onEvent = logEvents((line) => lines.push(line), warned);
      onEvent({ kind: 'warning', message: modelMissing });
      onEvent({ kind: 'skipped', path: 'a.pdf', message: 'skipped a.pdf: no text layer' });
    }
    const onEvent = logEvents((line) => lines.push(line), warned);
    onEvent({ kind: 'warning', message: 'another warning' });
    expect(lines.filter((line) => line.includes(modelMissing))).toHaveLength(1);
    expect(lines.filter((line) => line === 'live sync: skipped a.pdf: no text layer')).toHaveLength(3);
    expect(lines.at(-1)).toBe('live sync: another warning');
    expect(lines).toHaveLength(5);
  });
});
