// The built CLI with a KB registry in a temp GROOVE_HOME or XDG_CONFIG_HOME (never the real home): a KB indexed
// and searched by name from unrelated folders whose groove.toml files would change its settings, and several
// `groove kb add` processes racing on one registry.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { binPath } from '../support/run-bin.js';

let root: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-kbe2e-')));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** An environment with no trace of the real home: HOME, the XDG folders and GROOVE_* point into `root`. */
function isolatedEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (/^(GROOVE_|XDG_)/.test(key)) delete env[key];
  return {
    ...env,
    HOME: path.join(root, 'home'),
    GROOVE_OFFLINE: '1',
    GROOVE_NO_SERVER: '1',
    GROOVE_MODEL_DIR: path.join(root, 'models'),
    ...extra,
  };
}

function groove(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const run = spawnSync(process.execPath, [binPath, ...args], {
    cwd,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

function grooveAsync(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [binPath, ...args], { cwd, env });
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

function folder(...parts: string[]): string {
  const dir = path.join(root, ...parts);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

describe('groove --kb NAME from any folder', () => {
  it('index --kb then search --kb from unrelated folders uses the entry, not their groove.toml', () => {
    const env = isolatedEnv({ GROOVE_HOME: path.join(root, 'groove') });
    const kb = folder('kbs', 'notes');
    fs.writeFileSync(path.join(kb, 'backup.md'), '# Backup\n\nRestic snapshots run every night.\n');
    fs.writeFileSync(path.join(kb, 'runbook.txt'), 'Rotate the restic repository password each quarter.\n');
    // Folders whose groove.toml would index another folder, with other parsers and a model that is not there.
    const hostile = (name: string, toml: string) => {
      const dir = folder(name);
      fs.writeFileSync(path.join(dir, 'groove.toml'), toml);
      return dir;
    };
    const projectA = hostile(
      'project-a',
      `kb_path = "${root}"\nmodel = "bge-m3"\n[parsers]\nenabled = ["md"]\n`,
    );
    const projectB = hostile(
      'project-b',
      '[parsers]\nenabled = ["txt"]\n[chunking]\nmax_chunk_bytes = 300\n',
    );

    const added = groove(['kb', 'add', 'notes', kb, '--model', 'none', '--parsers', 'md,txt'], projectA, env);
    expect(added.code, added.stderr).toBe(0);
    expect(fs.existsSync(path.join(root, 'groove', 'config', 'kbs.toml'))).toBe(true);

    const indexed = groove(['index', '--kb', 'notes', '--format', 'json'], projectA, env);
    expect(indexed.code, indexed.stderr).toBe(0);
    const searched = groove(['search', 'restic', '--kb', 'notes', '--format', 'json'], projectB, env);
    expect(searched.code, searched.stderr).toBe(0);
    const paths = (JSON.parse(searched.stdout) as { results: Array<{ path: string }> }).results.map(
      (r) => r.path,
    );
    expect(paths.sort()).toEqual(['backup.md', 'runbook.txt']);

    // A re-index from the other folder changes nothing: the same settings, so nothing to add or drop.
    const again = groove(['index', '--kb', 'notes', '--format', 'json'], projectB, env);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ indexed: 0, deleted: 0, unchanged: 2 });
    const status = groove(['status', '--kb', 'notes', '--format', 'json'], os.tmpdir(), env);
    expect(JSON.parse(status.stdout)).toMatchObject({ kb_path: kb, documents: 2 });
    expect(fs.readdirSync(kb).sort()).toEqual(['backup.md', 'runbook.txt']);
  });

  it('finds the registry under XDG_CONFIG_HOME when GROOVE_HOME is not set', () => {
    const env = isolatedEnv({ XDG_CONFIG_HOME: path.join(root, 'xdg') });
    const kb = folder('kbs', 'notes');
    fs.writeFileSync(path.join(kb, 'a.md'), '# A\n\nalpha\n');
    expect(groove(['kb', 'add', 'notes', kb, '--model', 'none'], root, env).code).toBe(0);
    expect(fs.existsSync(path.join(root, 'xdg', 'groove', 'kbs.toml'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'home', '.config'))).toBe(false);
    const list = groove(['kb', 'list', '--format', 'json'], folder('elsewhere'), env);
    expect(JSON.parse(list.stdout).kbs.map((k: { name: string }) => k.name)).toEqual(['notes']);
    const unknown = groove(['search', 'alpha', '--kb', 'other'], root, env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('registered: notes');
  });
});

describe('groove kb add racing', () => {
  it('keeps every entry when several processes add at once (several trials)', async () => {
    const racers = 4;
    for (let trial = 0; trial < 4; trial++) {
      const env = isolatedEnv({ GROOVE_HOME: path.join(root, `groove-${trial}`) });
      const names = Array.from({ length: racers }, (_, i) => `kb${i}`);
      const runs = await Promise.all(
        names.map((name) => grooveAsync(['kb', 'add', name, folder(`t${trial}`, name)], root, env)),
      );
      for (const run of runs) expect(run.code, run.stderr).toBe(0);
      const list = groove(['kb', 'list', '--format', 'json'], root, env);
      const listed = JSON.parse(list.stdout).kbs.map((k: { name: string }) => k.name);
      expect(listed.sort(), `trial ${trial}`).toEqual(names);
    }
  }, 120_000);
});
