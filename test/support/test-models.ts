// Generated test models for integration tests: each kind is written once per process into os.tmpdir.
// Generation takes ~100 ms, so tests never ship or download model files.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeTestModel } from '../../scripts/test-model/write-test-model.js';

export type TinyModelKind = 'embed' | 'rerank';

const generated = new Map<TinyModelKind, string>();
let rootDir: string | null = null;

function ensureRootDir(): string {
  if (rootDir === null) {
    rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-models-'));
    const dir = rootDir;
    // Best effort: the folder is small and in tmp, but do not leave one per test run behind.
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return rootDir;
}

/** The folder of the tiny generated model of this kind (hidden 32, English + Japanese vocab, mean pooling). */
export function ensureTinyModel(kind: TinyModelKind): string {
  const existing = generated.get(kind);
  if (existing !== undefined) return existing;
  const dir = path.join(ensureRootDir(), `tiny-${kind}`);
  writeTestModel({ kind, shape: 'tiny', outDir: dir });
  generated.set(kind, dir);
  return dir;
}

/** Copy a generated model folder so a test can damage or rename it without affecting others. */
export function copyModelFolder(source: string, target: string): string {
  fs.cpSync(source, target, { recursive: true });
  return target;
}
