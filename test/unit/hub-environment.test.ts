// The Hugging Face variables: offline switches, the hub cache's location, the token and the proxy variables.
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hubCacheDirFrom, hubEnvironmentFrom, hubOfflineFrom } from '../../src/config/hub-environment.js';
import { resolveConfig } from '../../src/config/resolve-config.js';

const home = path.resolve('/home/u');
const cwd = path.resolve('/work');

describe('Hugging Face environment', () => {
  it('HF_HUB_OFFLINE and TRANSFORMERS_OFFLINE switch groove offline', () => {
    for (const value of ['1', 'true', 'YES', 'on']) {
      expect(hubOfflineFrom({ HF_HUB_OFFLINE: value })).toBe(true);
      expect(hubOfflineFrom({ TRANSFORMERS_OFFLINE: value })).toBe(true);
    }
    expect(hubOfflineFrom({ HF_HUB_OFFLINE: '0', TRANSFORMERS_OFFLINE: '' })).toBe(false);
    const tmp = os.tmpdir();
    expect(resolveConfig({ cwd: tmp, env: { HF_HUB_OFFLINE: '1' } }).offline).toBe(true);
    expect(resolveConfig({ cwd: tmp, env: { TRANSFORMERS_OFFLINE: '1' } }).offline).toBe(true);
    expect(resolveConfig({ cwd: tmp, env: {} }).offline).toBe(false);
  });

  it('finds the hub cache: HF_HUB_CACHE, HF_HOME/hub, XDG_CACHE_HOME/huggingface/hub, ~/.cache/huggingface/hub', () => {
    expect(hubCacheDirFrom({ HF_HUB_CACHE: '/c', HF_HOME: '/h' }, home, cwd)).toBe(path.resolve('/c'));
    expect(hubCacheDirFrom({ HF_HOME: 'hf' }, home, cwd)).toBe(path.join(cwd, 'hf', 'hub'));
    expect(hubCacheDirFrom({ XDG_CACHE_HOME: '/x' }, home, cwd)).toBe(path.join('/x', 'huggingface', 'hub'));
    expect(hubCacheDirFrom({}, home, cwd)).toBe(path.join(home, '.cache', 'huggingface', 'hub'));
  });

  it('reads HF_TOKEN and the proxy variables, the lowercase name winning', () => {
    const env = {
      HF_TOKEN: 'hf_x',
      HTTPS_PROXY: 'http://upper:1',
      https_proxy: 'http://lower:2',
      NO_PROXY: 'a.b',
    };
    expect(hubEnvironmentFrom(env, home, cwd)).toEqual({
      token: 'hf_x',
      hubCacheDir: path.join(home, '.cache', 'huggingface', 'hub'),
      httpsProxy: 'http://lower:2',
      httpProxy: null,
      noProxy: 'a.b',
    });
  });
});
