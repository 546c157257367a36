// `groove service`: the user-service file it writes (systemd on Linux), checked as text, by systemd's own
// verifier where it is installed, and through install → status → uninstall into a temporary home.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderLaunchdPlist, renderSystemdUnit } from '../../src/app/service/service-units.js';
import { type CliRun, runGroove } from '../support/run-cli.js';

let home: string;
let kbPath: string;

function groove(args: string[]): Promise<CliRun> {
  return runGroove(args, { cwd: home, env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') } });
}

beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-service-'));
  kbPath = path.join(home, 'my notes');
  fs.mkdirSync(kbPath);
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

const linuxOnly = process.platform === 'linux' ? describe : describe.skip;
const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' }).status === 0;
const analyzeReason = hasSystemdAnalyze
  ? 'systemd-analyze is installed'
  : 'skipped: systemd-analyze is not installed';

describe('service files', () => {
  const spec = {
    name: 'notes',
    command: ['/usr/bin/node', '/opt/a b/groove.js', '--kb-path', '/n/50% "x" $HOME'],
    workingDirectory: '/n',
  };

  it('systemd: every word quoted, % and $ escaped so systemd runs exactly these arguments', () => {
    const unit = renderSystemdUnit(spec);
    expect(unit).toContain(
      'ExecStart="/usr/bin/node" "/opt/a b/groove.js" "--kb-path" "/n/50%% \\"x\\" $$HOME"',
    );
    expect(unit).toContain('UMask=0077');
    expect(unit).toContain('WantedBy=default.target');
  });

  it('systemd: control characters, backslashes and quotes are escaped, so the unit keeps its 15 lines', () => {
    const hostile = {
      name: 'notes',
      command: ['/usr/bin/node', '--db-path', '/d/a\rb\nc\td\x01e\u0085f', '--config', '/c/x\\', '/q/"\'$%'],
      workingDirectory: '/kb/ends with\\',
    };
    const unit = renderSystemdUnit(hostile);
    // systemd ends a line at LF, CR or NUL: the unit has its 15 lines (and the empty text after the last).
    expect(unit.split(/[\n\r\0]/)).toHaveLength(16);
    expect(unit).toContain(
      'ExecStart="/usr/bin/node" "--db-path" "/d/a\\rb\\nc\\td\\x01e\\u0085f" "--config" "/c/x\\\\" "/q/\\"\'$$%%"\n',
    );
    expect(unit).toContain('WorkingDirectory=/kb/ends with\\/\n');
    expect(renderSystemdUnit({ ...hostile, workingDirectory: '/kb/100% ' })).toContain(
      'WorkingDirectory=/kb/100%% /\n',
    );
  });

  it('launchd: arguments as XML strings with markup escaped', () => {
    const plist = renderLaunchdPlist({ ...spec, command: ['/usr/bin/node', '<a&b>'] }, '/tmp/log');
    expect(plist).toContain('<string>&lt;a&amp;b&gt;</string>');
    expect(plist).toContain('<string>com.groove.notes</string>');
    expect(plist).toContain('<key>Umask</key>');
  });
});

linuxOnly('groove service on Linux', () => {
  const unitPath = () => path.join(home, '.config/systemd/user/groove-notes.service');

  it('--dry-run prints the unit and writes nothing', async () => {
    const dry = await groove([
      'service',
      'install',
      '--kb-path',
      kbPath,
      '--service-name',
      'notes',
      '--dry-run',
    ]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.split('\n')[0]).toBe(`# ${unitPath()}`);
    expect(dry.stdout).toContain(`"--kb-path" "${kbPath}"`);
    expect(dry.stdout).toContain('"--bind" "127.0.0.1" "--port" "3100"');
    expect(fs.existsSync(unitPath())).toBe(false);
  });

  it.skipIf(!hasSystemdAnalyze)(
    `systemd-analyze verify accepts every unit, hostile paths included (${analyzeReason})`,
    async () => {
      const hostileRoot = path.join(home, 'ends with \\');
      const hostileKb = path.join(hostileRoot, 'kb 100% $HOME "q"');
      fs.mkdirSync(hostileKb, { recursive: true });
      const config = path.join(home, 'conf\rig\x01.toml');
      fs.writeFileSync(config, '');
      const cases = [
        ['--kb-path', kbPath],
        ['--kb-path', hostileKb, '--db-path', path.join(hostileRoot, 'x\ry\tz\\'), '--config', config],
        ['--kb-path', kbPath, '--db-path', path.join(home, 'db\u0085\u2028%n.db')],
      ];
      for (const args of cases) {
        const dry = await groove(['service', 'install', ...args, '--service-name', 'notes', '--dry-run']);
        expect(dry.code, dry.stderr).toBe(0);
        const unit = dry.stdout.slice(dry.stdout.indexOf('\n') + 1);
        expect(unit.split(/[\n\r\0]/)).toHaveLength(16);
        const file = path.join(home, 'groove-notes.service');
        fs.writeFileSync(file, unit);
        const verify = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
        expect(
          verify.stderr.split('\n').filter((line) => line.includes('groove-notes.service')),
          `${args.join(' ')}\n${verify.stderr}`,
        ).toEqual([]);
      }
    },
  );

  it('refuses an index path in a folder that does not exist, or inside the KB, and writes nothing', async () => {
    for (const [dbPath, message] of [
      [path.join(home, 'no such folder', 'kb.db'), /the folder of the index path ".*kb.db" does not exist/],
      [path.join(kbPath, 'inside.db'), /the index path ".*inside.db" is inside the knowledge base/],
    ] as const) {
      for (const mode of ['--dry-run', '--no-start']) {
        const run = await groove([
          'service',
          'install',
          '--kb-path',
          kbPath,
          '--db-path',
          dbPath,
          '--service-name',
          'paths',
          mode,
        ]);
        expect(run.code, dbPath).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.stderr).toMatch(message);
      }
    }
    const config = await groove([
      'service',
      'install',
      '--kb-path',
      kbPath,
      '--config',
      path.join(home, 'missing.toml'),
      '--service-name',
      'paths',
      '--no-start',
    ]);
    expect(config.code).toBe(1);
    expect(config.stderr).toMatch(/config file ".*missing.toml" does not exist/);
    expect(fs.existsSync(path.join(home, '.config/systemd/user/groove-paths.service'))).toBe(false);
    expect(fs.readdirSync(kbPath)).toEqual([]);
  });

  it('refuses a working folder with a control character, which WorkingDirectory= cannot say', async () => {
    const kb = path.join(home, 'line\rbreak', 'kb');
    fs.mkdirSync(kb, { recursive: true });
    const run = await groove(['service', 'install', '--kb-path', kb, '--dry-run']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('cannot write a service for the working folder');
    expect(run.stderr).toContain('it holds a control character');
  });

  it('refuses a non-loopback bind without --allow-remote, and a bad name', async () => {
    const remote = await groove([
      'service',
      'install',
      '--kb-path',
      kbPath,
      '--bind',
      '0.0.0.0',
      '--dry-run',
    ]);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('refusing to install a service listening on non-loopback "0.0.0.0"');
    const allowed = await groove([
      'service',
      'install',
      '--kb-path',
      kbPath,
      '--bind',
      '0.0.0.0',
      '--allow-remote',
      '--dry-run',
    ]);
    expect(allowed.stdout).toContain('"--allow-remote"');
    const name = await groove([
      'service',
      'install',
      '--kb-path',
      kbPath,
      '--service-name',
      '../x',
      '--dry-run',
    ]);
    expect(name.code).toBe(2);
    expect(name.stderr).toContain('service name "../x" is not allowed');
  });

  it('install --no-start writes the unit, refuses a second install without --force, status sees it, uninstall removes it', async () => {
    const first = await groove([
      'service',
      'install',
      '--kb-path',
      kbPath,
      '--service-name',
      'notes',
      '--no-start',
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(fs.readFileSync(unitPath(), 'utf8')).toContain('ExecStart=');
    const again = await groove([
      'service',
      'install',
      '--kb-path',
      kbPath,
      '--service-name',
      'notes',
      '--no-start',
    ]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('is already installed');
    expect(
      (
        await groove([
          'service',
          'install',
          '--kb-path',
          kbPath,
          '--service-name',
          'notes',
          '--no-start',
          '--force',
        ])
      ).code,
    ).toBe(0);
    const status = await groove([
      'service',
      'status',
      '--service-name',
      'notes',
      '--no-ask',
      '--format',
      'json',
    ]);
    expect(JSON.parse(status.stdout)).toEqual({
      name: 'notes',
      installed: true,
      file: unitPath(),
      state: null,
    });
    const removed = await groove(['service', 'uninstall', '--service-name', 'notes', '--no-stop']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(fs.existsSync(unitPath())).toBe(false);
    expect((await groove(['service', 'status', '--service-name', 'notes', '--no-ask'])).code).toBe(1);
  });
});
