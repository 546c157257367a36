// `groove service install` places the systemd unit under $XDG_CONFIG_HOME only when it is absolute (the XDG spec
// says a relative value is ignored), never below the current folder.
import { describe, expect, it } from 'vitest';
import { planService, type ServiceRequest } from '../../src/app/service/service.js';

const request = (env: Record<string, string>): ServiceRequest => ({
  name: 'groove',
  kbPath: '/srv/notes',
  dbPath: null,
  configPath: null,
  bind: '127.0.0.1',
  port: 7777,
  allowRemote: false,
  platform: 'linux',
  homeDir: '/home/u',
  env,
});

describe('service unit place', () => {
  it('follows an absolute XDG_CONFIG_HOME', () => {
    expect(planService(request({ XDG_CONFIG_HOME: '/cfg' })).filePath).toBe(
      '/cfg/systemd/user/groove-groove.service',
    );
  });

  it('ignores a relative or empty XDG_CONFIG_HOME and uses ~/.config', () => {
    for (const value of ['relative/config', './cfg', '']) {
      expect(planService(request({ XDG_CONFIG_HOME: value })).filePath).toBe(
        '/home/u/.config/systemd/user/groove-groove.service',
      );
    }
  });
});
