// The package as users get it: `npm pack` of this checkout, installed into an empty project, then `npx groove-kb`
// runs --help and a lexical index + search, and without the optional model runtime the default model is refused
// with the package to install while search answers by keyword. npm fetches the dependencies from its cache
// (filled by `npm ci`); install scripts are skipped and better-sqlite3's native addon is copied from this checkout's build, because
// compiling it again (about a minute) tests better-sqlite3, not this package.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/mcp-fixture.js';
import { ensureTinyModel } from '../support/test-models.js';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';
/** The optional model runtime, at the version package.json names as the peer. */
const RUNTIME = `@huggingface/transformers@${
  (
    JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
      peerDependencies: Record<string, string>;
    }
  ).peerDependencies['@huggingface/transformers']
}`;
let workDir: string;
let project: string;

function run(
  command: string,
  args: string[],
  cwd: string,
): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GROOVE_OFFLINE: '1', npm_config_update_notifier: 'false' },
    timeout: 240_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-package-'));
  project = path.join(workDir, 'project');
  fs.mkdirSync(project);
  const packed = run(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', workDir], repoRoot);
  expect(packed.code, packed.stderr).toBe(0);
  const filename = (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename;
  fs.writeFileSync(
    path.join(project, 'package.json'),
    '{"name":"user-project","version":"1.0.0","private":true}\n',
  );
  const installed = run(
    NPM,
    [
      'install',
      '--ignore-scripts',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      path.join(workDir, filename),
    ],
    project,
  );
  expect(installed.code, installed.stderr).toBe(0);
  const addon = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
  fs.mkdirSync(path.dirname(path.join(project, addon)), { recursive: true });
  fs.copyFileSync(path.join(repoRoot, addon), path.join(project, addon));
  fs.cpSync(path.join(repoRoot, 'examples/sample-kb'), path.join(project, 'notes'), { recursive: true });
}, 300_000);
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }), 120_000);

describe('the packed package', () => {
  it('ships the bin, the built code and the CLI bundle only', () => {
    const root = path.join(project, 'node_modules/groove-kb');
    expect(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).bin).toEqual({
      groove: 'bin/groove.js',
    });
    expect(fs.existsSync(path.join(root, 'dist/src/cli/main.js'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'dist/src/models/embedder-worker.js'))).toBe(true);
    // bin/groove.js runs the bundled CLI; its threads start from entry points beside it.
    for (const file of ['main.js', 'search-prestart.js', 'embedder-worker.js', 'extract-worker.js'])
      expect(fs.existsSync(path.join(root, 'dist/bundle', file)), file).toBe(true);
    expect(fs.existsSync(path.join(root, 'src'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'test'))).toBe(false);
  });

  it('runs with npx: --help, then a lexical index and search', () => {
    const help = run(NPX, ['--no-install', 'groove-kb', '--help'], project);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: groove');
    const index = run(
      NPX,
      ['--no-install', 'groove-kb', 'index', '--kb-path', 'notes', '--model', 'none', '--quiet'],
      project,
    );
    expect(index.code, index.stderr).toBe(0);
    const search = run(
      NPX,
      ['--no-install', 'groove-kb', 'search', 'reset password', '--kb-path', 'notes', '--limit', '1'],
      project,
    );
    expect(search.code, search.stderr).toBe(0);
    expect(JSON.parse(search.stdout).results[0].path).toBe('guides/password-reset.md');
  });

  it('installs no model runtime; the default model then names the package to add and search answers by keyword', () => {
    for (const heavy of ['@huggingface/transformers', 'onnxruntime-node', 'onnxruntime-web']) {
      expect(fs.existsSync(path.join(project, 'node_modules', heavy)), heavy).toBe(false);
    }
    const where = ['--kb-path', 'notes', '--db-path', 'default-model.groove.db'];
    const index = run(NPX, ['--no-install', 'groove-kb', 'index', ...where, '--quiet'], project);
    expect(index.code).toBe(1);
    expect(index.stderr).toContain('The model runtime is not installed');
    expect(index.stderr).toContain('npm install @huggingface/transformers@4.3.1');
    const search = run(NPX, ['--no-install', 'groove-kb', 'search', 'reset password', ...where], project);
    expect(search.code, search.stderr).toBe(0);
    const response = JSON.parse(search.stdout);
    expect(response.results[0].path).toBe('guides/password-reset.md');
    expect(response.legs.vector.status).toBe('failed');
    expect(response.legs.vector.error).toMatch(/^The model runtime is not installed/);
  });

  it('with the runtime installed beside it, a local model embeds and the vector leg answers', () => {
    const added = run(
      NPM,
      ['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', RUNTIME],
      project,
    );
    expect(added.code, added.stderr).toBe(0);
    const where = ['--kb-path', 'notes', '--db-path', 'local-model.groove.db'];
    const modelDir = ensureTinyModel('embed');
    const index = run(
      NPX,
      ['--no-install', 'groove-kb', 'index', ...where, '--model-dir', modelDir, '--quiet'],
      project,
    );
    expect(index.code, index.stderr).toBe(0);
    const search = run(NPX, ['--no-install', 'groove-kb', 'search', 'reset password', ...where], project);
    expect(search.code, search.stderr).toBe(0);
    expect(JSON.parse(search.stdout).legs.vector.status).toBe('ok');
  }, 180_000);
});
