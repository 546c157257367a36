import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/sha256.js';
import {
  decodeUtf8Text,
  describeSkipReason,
  findInvalidUtf8Offset,
  readCheckedFile,
} from '../../src/fs/checked-read.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const hasMkfifo = spawnSync('mkfifo', ['--version']).error === undefined;
const isWindows = process.platform === 'win32';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function write(name: string, content: string | Uint8Array): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

const cap = { maxBytes: 1024 };

describe('readCheckedFile', () => {
  it('reads a regular file with its size and mtime from the same handle', () => {
    const file = write('ノート.md', '# 見出し\nbody\n');
    const read = readCheckedFile(file, cap);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.bytes.toString('utf8')).toBe('# 見出し\nbody\n');
    expect(read.sizeBytes).toBe(Buffer.byteLength('# 見出し\nbody\n'));
    expect(read.mtimeMs).toBe(fs.statSync(file).mtimeMs);
  });

  it('reads an empty file', () => {
    const read = readCheckedFile(write('empty.md', ''), cap);
    expect(read).toMatchObject({ ok: true, sizeBytes: 0 });
  });

  it.skipIf(isWindows)('refuses a symlink to a file and a dangling symlink', () => {
    const target = write('real.md', 'x');
    fs.symlinkSync(target, path.join(dir, 'link.md'));
    fs.symlinkSync(path.join(dir, 'missing.md'), path.join(dir, 'dangling.md'));
    expect(readCheckedFile(path.join(dir, 'link.md'), cap)).toMatchObject({ ok: false, reason: 'symlink' });
    expect(readCheckedFile(path.join(dir, 'dangling.md'), cap)).toMatchObject({
      ok: false,
      reason: 'symlink',
    });
  });

  it('refuses both names of a hard-linked file', () => {
    const original = write('a.md', 'shared');
    fs.linkSync(original, path.join(dir, 'b.md'));
    for (const name of ['a.md', 'b.md']) {
      const read = readCheckedFile(path.join(dir, name), cap);
      expect(read).toMatchObject({ ok: false, reason: 'hard-link', detail: 'it has 2 hard links' });
    }
  });

  it.skipIf(!hasMkfifo)('refuses a FIFO without blocking', () => {
    const fifo = path.join(dir, 'pipe.md');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    const read = readCheckedFile(fifo, cap);
    expect(read).toMatchObject({ ok: false, reason: 'not-regular' });
    expect(!read.ok && read.detail).toContain('FIFO');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('refuses a directory', () => {
    fs.mkdirSync(path.join(dir, 'folder.md'));
    expect(readCheckedFile(path.join(dir, 'folder.md'), cap)).toMatchObject({
      ok: false,
      reason: 'not-regular',
      detail: 'it is a directory, not a regular file',
    });
  });

  it('refuses a file over the cap and accepts one exactly at it', () => {
    const over = write('big.md', Buffer.alloc(1025, 0x61));
    const at = write('edge.md', Buffer.alloc(1024, 0x61));
    expect(readCheckedFile(over, cap)).toEqual({
      ok: false,
      reason: 'too-large',
      detail: 'file is 1025 bytes, over the 1024-byte cap',
    });
    expect(readCheckedFile(at, cap)).toMatchObject({ ok: true, sizeBytes: 1024 });
  });

  it('reports a file deleted after the walk, or whose folder became a file, as vanished', () => {
    const file = write('gone.md', 'x');
    fs.rmSync(file);
    expect(readCheckedFile(file, cap)).toMatchObject({ ok: false, reason: 'vanished' });
    write('notadir', 'x');
    expect(readCheckedFile(path.join(dir, 'notadir', 'x.md'), cap)).toMatchObject({
      ok: false,
      reason: 'vanished',
    });
  });

  it.skipIf(isWindows)('reports a file without read permission as unreadable', () => {
    const file = write('secret.md', 'x');
    fs.chmodSync(file, 0o000);
    fs.chmodSync(dir, 0o755);
    // root ignores permission bits, so the read runs as an unprivileged user when the tests run as root.
    const asRoot = process.getuid?.() === 0;
    const script = `import { readCheckedFile } from ${JSON.stringify(path.join(repoRoot, 'src/fs/checked-read.ts'))};
      process.stdout.write(JSON.stringify(readCheckedFile(${JSON.stringify(file)}, { maxBytes: 10 })));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: repoRoot,
      encoding: 'utf8',
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toMatchObject({ ok: false, reason: 'unreadable' });
  });
});

describe('decodeUtf8Text', () => {
  it('decodes UTF-8 and strips a byte-order mark', () => {
    expect(decodeUtf8Text(Buffer.from('日本語のメモ'))).toEqual({
      ok: true,
      text: '日本語のメモ',
      hadBom: false,
    });
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('# T')]);
    expect(decodeUtf8Text(withBom)).toEqual({ ok: true, text: '# T', hadBom: true });
  });

  it('calls a file with a NUL byte anywhere binary, also after the first 8 KiB', () => {
    const early = Buffer.from('PNG\0\0data');
    expect(decodeUtf8Text(early)).toEqual({
      ok: false,
      reason: 'binary',
      detail: 'it contains a NUL byte at offset 3, so it looks binary',
    });
    const late = Buffer.concat([Buffer.alloc(8192, 0x61), Buffer.from([0])]);
    expect(decodeUtf8Text(late)).toEqual({
      ok: false,
      reason: 'binary',
      detail: 'it contains a NUL byte at offset 8192, so it looks binary',
    });
    const veryLate = Buffer.concat([Buffer.alloc(3 * 1024 * 1024, 0x61), Buffer.from('tail\0')]);
    expect(decodeUtf8Text(veryLate)).toMatchObject({ ok: false, reason: 'binary' });
  });

  it('refuses invalid UTF-8 and names the first bad offset', () => {
    const latin1 = Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from(' au lait')]);
    expect(decodeUtf8Text(latin1)).toEqual({
      ok: false,
      reason: 'invalid-utf8',
      detail: 'it is not valid UTF-8 (first bad byte at offset 3)',
    });
  });

  it('finds overlong forms, surrogates, out-of-range and truncated sequences', () => {
    expect(findInvalidUtf8Offset(Buffer.from([0x61, 0xc0, 0x80]))).toBe(1);
    expect(findInvalidUtf8Offset(Buffer.from([0xed, 0xa0, 0x80]))).toBe(0);
    expect(findInvalidUtf8Offset(Buffer.from([0xf4, 0x90, 0x80, 0x80]))).toBe(0);
    expect(findInvalidUtf8Offset(Buffer.from([0x61, 0x62, 0xe3, 0x81]))).toBe(2);
    expect(findInvalidUtf8Offset(Buffer.from('ok 日本 🎸'))).toBe(-1);
  });

  it('agrees with the strict decoder on arbitrary bytes', () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        let valid = true;
        try {
          strict.decode(bytes);
        } catch {
          valid = false;
        }
        const offset = findInvalidUtf8Offset(bytes);
        expect(offset === -1).toBe(valid);
        // Everything before the reported offset is itself valid UTF-8.
        if (offset !== -1) expect(findInvalidUtf8Offset(bytes.subarray(0, offset))).toBe(-1);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('describeSkipReason', () => {
  it('names the file, the problem and the fix', () => {
    const line = describeSkipReason('notes/big.md', {
      reason: 'too-large',
      detail: 'file is 62914560 bytes, over the 52428800-byte cap',
    });
    expect(line).toBe(
      'skipped notes/big.md: file is 62914560 bytes, over the 52428800-byte cap (raise [index] max_file_bytes)',
    );
  });

  it('lets callers with another cap replace or drop the advice', () => {
    const skip = { reason: 'too-large' as const, detail: 'file is 2 bytes, over the 1-byte cap' };
    expect(describeSkipReason('g.yml', skip, { capAdvice: 'the golden file is limited to 1 MiB' })).toBe(
      'skipped g.yml: file is 2 bytes, over the 1-byte cap (the golden file is limited to 1 MiB)',
    );
    expect(describeSkipReason('g.yml', skip, { capAdvice: null })).toBe(
      'skipped g.yml: file is 2 bytes, over the 1-byte cap',
    );
  });
});

describe('sha256Hex', () => {
  it('hashes raw bytes as lowercase hex', () => {
    expect(sha256Hex(Buffer.from('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(sha256Hex(Buffer.alloc(0))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('hashes the bytes a checked read returns, so equal files hash equal', () => {
    const a = readCheckedFile(write('a.md', 'same'), cap);
    const b = readCheckedFile(write('b.md', 'same'), cap);
    expect(a.ok && b.ok && sha256Hex(a.bytes) === sha256Hex(b.bytes)).toBe(true);
  });
});
