// `groove service`: the user-service file it writes (systemd on Linux), checked as text, by systemd's own
// verifier where it is installed, and through install → status → uninstall into a temporary home.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderLaunchdPlist, renderSystemdUnit } from '../../src/core/service-units.js';
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

  it('systemd-analyze verify accepts the unit (where systemd-analyze is installed)', async () => {
    const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
    if (analyze.status !== 0) return;
    const dry = await groove([
      'service',
      'install',
      '--kb-path',
      kbPath,
      '--service-name',
      'notes',
      '--dry-run',
    ]);
    const file = path.join(home, 'groove-notes.service');
    fs.writeFileSync(file, dry.stdout.split('\n').slice(1).join('\n'));
    const verify = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
    expect(
      verify.stderr.split('\n').filter((line) => line.includes('groove-notes.service')),
      verify.stderr,
    ).toEqual([]);
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
