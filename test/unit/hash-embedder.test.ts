import { describe, expect, it } from 'vitest';
import { HashEmbedder } from '../support/hash-embedder.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] as number), 0);

describe('HashEmbedder (test support)', () => {
  it('is deterministic, unit length, and ranks word overlap above unrelated text', async () => {
    const embedder = new HashEmbedder({ dimension: 128 });
    const [a, b, c] = await embedder.embedDocuments([
      'How do I reset my password?',
      'Password reset steps',
      'Quarterly revenue report',
    ]);
    const q = await embedder.embedQuery('reset password');
    expect(Math.hypot(...(a as Float32Array))).toBeCloseTo(1, 5);
    expect([...(await embedder.embedQuery('How do I reset my password?'))]).toEqual([...(a as Float32Array)]);
    expect(dot(q, b as Float32Array)).toBeGreaterThan(dot(q, c as Float32Array));
    const [ja1, ja2] = await embedder.embedDocuments(['パスワードの再設定', '四半期の売上']);
    expect(dot(await embedder.embedQuery('パスワード'), ja1 as Float32Array)).toBeGreaterThan(
      dot(await embedder.embedQuery('パスワード'), ja2 as Float32Array),
    );
  });
});
