// Cold `groove search` as real processes: a lexical-only index never loads the model libraries (onnxruntime-node,
// sharp, @huggingface/transformers), and hundreds of cold searches — lexical and hybrid, two at a time — all exit normally. A cold search
// once aborted with `terminate called after throwing an instance of 'Napi::Error'`: the prestarted inference
// thread was terminated while sharp's addon initialised. The default loops are short; GROOVE_STRESS=1 runs the
// long ones (200 lexical + 60 hybrid cold searches).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchArgsOpenLocalModel } from '../../src/cli/search-prestart.js';
import { ensureTinyModel } from '../support/test-models.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const binPath = path.join(repoRoot, 'bin/groove.js');
const librariesHook = path.join(repoRoot, 'test/support/loaded-libraries.mjs');
const sampleKb = path.join(repoRoot, 'examples/sample-kb');
const hasDist = fs.existsSync(path.join(repoRoot, 'dist/src/cli/main.js'));
const long = process.env.GROOVE_STRESS === '1';
const LEXICAL_RUNS = long ? 200 : 20;
const HYBRID_RUNS = long ? 60 : 6;
const CONCURRENCY = 2;

let workDir: string;
let lexicalArgs: string[];
let hybridArgs: string[];

function groove(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [binPath, ...args], {
    cwd: workDir,
    encoding: 'utf8',
    env: { ...process.env, GROOVE_OFFLINE: '1', ...env },
    timeout: 60_000,
  });
}

beforeAll(() => {
  if (!hasDist) return;
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-cold-search-'));
  for (const kind of ['lexical', 'hybrid'])
    fs.cpSync(sampleKb, path.join(workDir, kind), { recursive: true });
  lexicalArgs = ['--kb-path', path.join(workDir, 'lexical'), '--db-path', path.join(workDir, 'lexical.db')];
  hybridArgs = ['--kb-path', path.join(workDir, 'hybrid'), '--db-path', path.join(workDir, 'hybrid.db')];
  const built = [
    groove(['index', ...lexicalArgs, '--model', 'none']),
    groove(['index', ...hybridArgs, '--model-dir', ensureTinyModel('embed')]),
  ];
  for (const run of built) expect(run.status, run.stderr).toBe(0);
});
afterAll(() => {
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

/** The model libraries a cold search mapped into its process. */
function librariesLoadedBy(args: string[]): string[] {
  const out = path.join(workDir, `libraries-${process.hrtime.bigint()}.json`);
  const run = spawnSync(process.execPath, ['--import', librariesHook, binPath, ...args], {
    cwd: workDir,
    encoding: 'utf8',
    env: { ...process.env, GROOVE_OFFLINE: '1', GROOVE_TEST_LIBRARIES_OUT: out },
    timeout: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(fs.readFileSync(out, 'utf8')) as string[];
}

interface Abnormal {
  run: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Run `runs` cold searches, CONCURRENCY at a time; every run that did not exit 0 cleanly. */
async function coldSearches(runs: number, args: string[]): Promise<Abnormal[]> {
  const abnormal: Abnormal[] = [];
  let next = 0;
  const lane = async () => {
    while (next < runs) {
      const run = next++;
      await new Promise<void>((resolve) => {
        const child = spawn(
          process.execPath,
          [binPath, 'search', `password ${run}`, ...args, '--limit', '3'],
          {
            cwd: workDir,
            env: { ...process.env, GROOVE_OFFLINE: '1' },
            stdio: ['ignore', 'ignore', 'pipe'],
          },
        );
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8');
        });
        child.on('close', (code, signal) => {
          if (code !== 0 || signal !== null || stderr.includes('terminate called')) {
            abnormal.push({ run, code, signal, stderr: stderr.slice(0, 500) });
          }
          resolve();
        });
      });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  return abnormal;
}

describe.skipIf(!hasDist || process.platform !== 'linux')('cold groove search (real processes)', () => {
  it('a lexical-only search never loads onnxruntime, sharp or @huggingface/transformers; a hybrid one loads onnxruntime, never sharp', () => {
    expect(librariesLoadedBy(['search', 'password', ...lexicalArgs])).toEqual([]);
    // --model none on the command line: no model either, whatever the config says.
    expect(
      librariesLoadedBy(['search', 'password', '--limit', '2', ...lexicalArgs, '--model', 'none']),
    ).toEqual([]);
    const hybrid = librariesLoadedBy(['search', 'password', ...hybridArgs]);
    expect(hybrid.some((file) => file.includes('onnxruntime'))).toBe(true);
    // transformers.js is loaded without its image library: sharp and libvips are never mapped, not even by the
    // model thread. (The library itself is required as CommonJS, which the ESM module hook does not see.)
    expect(hybrid.filter((file) => /sharp|vips/.test(file))).toEqual([]);
  });

  it('prestarts only for a search that will open a local model, read from the flags and the index', async () => {
    const io = { stdout: process.stdout, stderr: process.stderr, env: { GROOVE_OFFLINE: '1' }, cwd: workDir };
    // Options it does not know (--limit 3) do not hide the ones after them.
    expect(await searchArgsOpenLocalModel(['password', '--limit', '3', ...hybridArgs], io)).toBe(true);
    const [kbFlag, kb, dbFlag, db] = hybridArgs;
    expect(await searchArgsOpenLocalModel(['password', `${kbFlag}=${kb}`, `${dbFlag}=${db}`], io)).toBe(true);
    expect(await searchArgsOpenLocalModel(['password', ...lexicalArgs], io)).toBe(false);
    expect(await searchArgsOpenLocalModel(['password', ...hybridArgs, '--model', 'none'], io)).toBe(false);
    // No index (the search will refuse) or no KB given: no thread either.
    expect(
      await searchArgsOpenLocalModel(['password', kbFlag!, kb!, dbFlag!, path.join(workDir, 'none.db')], io),
    ).toBe(false);
    expect(await searchArgsOpenLocalModel(['password'], io)).toBe(false);
  });

  it(`${LEXICAL_RUNS} lexical and ${HYBRID_RUNS} hybrid cold searches all exit normally`, async () => {
    const lexical = await coldSearches(LEXICAL_RUNS, lexicalArgs);
    const hybrid = await coldSearches(HYBRID_RUNS, hybridArgs);
    expect({ lexical, hybrid }).toEqual({ lexical: [], hybrid: [] });
  }, 600_000);
});
