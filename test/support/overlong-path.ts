// Folders and files whose absolute path is longer than PATH_MAX (4096 bytes on Linux), for the walk's
// per-file errno tests. No single call can create them by absolute path, so a child process walks down with
// relative mkdir/chdir steps, each well under the limit. Removal goes through `rm -rf`, which descends with
// directory descriptors instead of full paths. Test-only; Linux and macOS.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const SEGMENT = 'd'.repeat(200);

/**
 * Under `parent`, create `long/<200-char folder>/…` deep enough that the deepest folder's absolute path is just
 * under `pathMax`, then `fileName` inside it (so the file's absolute path is over the limit) and an overlong
 * subfolder holding `fileName` as well. Returns the relative path of the deepest listable folder.
 */
export function createOverlongTree(
  parent: string,
  fileName: string,
  content: string,
  pathMax = 4096,
): string {
  const depth = Math.floor(
    (pathMax - 1 - path.resolve(parent).length - '/long'.length) / (SEGMENT.length + 1),
  );
  const script = `
    const fs = require('node:fs');
    const [depth, segment, fileName, content] = process.argv.slice(1);
    fs.mkdirSync('long'); process.chdir('long');
    for (let i = 0; i < Number(depth); i++) { fs.mkdirSync(segment); process.chdir(segment); }
    fs.writeFileSync(fileName, content);
    fs.mkdirSync(segment); process.chdir(segment);
    fs.writeFileSync(fileName, content);
  `;
  execFileSync(process.execPath, ['-e', script, String(depth), SEGMENT, fileName, content], { cwd: parent });
  return ['long', ...Array.from({ length: depth }, () => SEGMENT)].join('/');
}

/** Remove a tree that may hold paths over PATH_MAX (fs.rmSync works with full paths and fails on them). */
export function removeDeepTree(dir: string): void {
  execFileSync('rm', ['-rf', dir]);
}
