import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Cached working copies of shared stores go to a temp folder, not the user's ~/.cache.
    env: { GROOVE_CACHE_DIR: path.join(os.tmpdir(), `groove-test-cache-${process.pid}`) },
  },
});
