import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrooveError } from '../../src/errors.js';
import { writeFileAtomic } from '../../src/fs/atomic-write.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const listDir = () => fs.readdirSync(dir).sort();

describe('writeFileAtomic', () => {
  it('creates a file with exact contents and leaves no temp file', () => {
    const file = path.join(dir, 'history.json');
    writeFileAtomic(file, '{"runs":["日本語"]}\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"runs":["日本語"]}\n');
    expect(listDir()).toEqual(['history.json']);
  });

  it('replaces an existing file with binary data', () => {
    const file = path.join(dir, 'state.bin');
    fs.writeFileSync(file, 'old contents that are longer');
    writeFileAtomic(file, Buffer.from([0, 1, 2, 255]));
    expect([...fs.readFileSync(file)]).toEqual([0, 1, 2, 255]);
    expect(listDir()).toEqual(['state.bin']);
  });

  it.skipIf(process.platform === 'win32')('applies the requested mode to a new file', () => {
    const file = path.join(dir, 'private.json');
    writeFileAtomic(file, '{}', { mode: 0o600 });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('fails with FILE_WRITE_FAILED when the folder does not exist', () => {
    const file = path.join(dir, 'missing', 'x.json');
    try {
      writeFileAtomic(file, 'x');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(GrooveError);
      expect((error as GrooveError).code).toBe('FILE_WRITE_FAILED');
      expect((error as GrooveError).message).toContain(file);
      expect((error as GrooveError).message).toContain('ENOENT');
    }
  });

  it('removes its temp file when the rename fails and leaves the target alone', () => {
    const target = path.join(dir, 'target');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'inside.txt'), 'keep');
    expect(() => writeFileAtomic(target, 'x')).toThrow(GrooveError);
    expect(listDir()).toEqual(['target']);
    expect(fs.readFileSync(path.join(target, 'inside.txt'), 'utf8')).toBe('keep');
  });

  it.skipIf(process.platform === 'win32')('replaces a symlink itself, never the file it points to', () => {
    const outside = path.join(dir, 'outside.txt');
    fs.writeFileSync(outside, 'untouched');
    const link = path.join(dir, 'link.json');
    fs.symlinkSync(outside, link);
    writeFileAtomic(link, 'new');
    expect(fs.readFileSync(outside, 'utf8')).toBe('untouched');
    expect(fs.lstatSync(link).isFile()).toBe(true);
    expect(fs.readFileSync(link, 'utf8')).toBe('new');
  });
});
