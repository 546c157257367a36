// groove's own folders: XDG (absolute values only), GROOVE_HOME over all three, GROOVE_CACHE_DIR for the cache,
// and one folder per knowledge base.
import { describe, expect, it } from 'vitest';
import { grooveFolders, kbDataDir, kbFolderName, xdgBaseFolders } from '../../src/config/groove-folders.js';

const home = '/home/u';
const cwd = '/work/here';

describe('groove folders', () => {
  it('defaults to ~/.local/share, ~/.config and ~/.cache', () => {
    expect(grooveFolders({}, home, cwd)).toEqual({
      dataDir: '/home/u/.local/share/groove',
      configDir: '/home/u/.config/groove',
      cacheDir: '/home/u/.cache/groove',
    });
  });

  it('follows absolute XDG values and ignores relative or empty ones, as the XDG spec says', () => {
    const env = { XDG_DATA_HOME: '/d', XDG_CONFIG_HOME: 'rel/config', XDG_CACHE_HOME: '' };
    expect(xdgBaseFolders(env, home)).toEqual({
      dataHome: '/d',
      configHome: '/home/u/.config',
      cacheHome: '/home/u/.cache',
    });
    expect(grooveFolders(env, home, cwd).dataDir).toBe('/d/groove');
  });

  it('puts all three under GROOVE_HOME (relative to the cwd), GROOVE_CACHE_DIR naming the cache alone', () => {
    const env = { GROOVE_HOME: 'portable', XDG_DATA_HOME: '/d' };
    expect(grooveFolders(env, home, cwd)).toEqual({
      dataDir: '/work/here/portable/data',
      configDir: '/work/here/portable/config',
      cacheDir: '/work/here/portable/cache',
    });
    expect(grooveFolders({ ...env, GROOVE_CACHE_DIR: '/c' }, home, cwd).cacheDir).toBe('/c');
    expect(grooveFolders({ GROOVE_CACHE_DIR: '/c' }, home, cwd).dataDir).toBe('/home/u/.local/share/groove');
  });
});

describe('a knowledge base folder', () => {
  it('is the registered name when there is one', () => {
    expect(kbFolderName({ realPath: '/kb/a', name: 'notes' })).toBe('notes');
    expect(kbDataDir(grooveFolders({}, home, cwd), { realPath: '/kb/a', name: 'notes' })).toBe(
      '/home/u/.local/share/groove/kbs/notes',
    );
  });

  it('is a readable slug and a hash of the real path otherwise, different for same-named folders', () => {
    const a = kbFolderName({ realPath: '/one/My Notes' });
    const b = kbFolderName({ realPath: '/two/My Notes' });
    expect(a).toMatch(/^my-notes-[0-9a-f]{12}$/);
    expect(b).toMatch(/^my-notes-[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
    expect(kbFolderName({ realPath: '/one/My Notes' })).toBe(a);
    expect(kbFolderName({ realPath: '/' })).toMatch(/^kb-[0-9a-f]{12}$/);
    expect(kbFolderName({ realPath: '/x/..', name: '../evil' })).toMatch(/^kb-[0-9a-f]{12}$/);
  });
});
