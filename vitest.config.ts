import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // groove's own folders (indexes by default, eval history, cached working copies of shared stores) go to
    // temp folders, never the user's home: GROOVE_HOME for the CLI a test spawns, HOME for in-process runs
    // whose environment is empty.
    env: {
      HOME: path.join(os.tmpdir(), `groove-test-home-${process.pid}`, 'home'),
      // npm keeps using the user's cache (the package-install test installs from it, offline).
      npm_config_cache: process.env.npm_config_cache || path.join(os.homedir(), '.npm'),
      GROOVE_HOME: path.join(os.tmpdir(), `groove-test-home-${process.pid}`, 'groove'),
      GROOVE_CACHE_DIR: path.join(os.tmpdir(), `groove-test-cache-${process.pid}`),
    },
  },
});
