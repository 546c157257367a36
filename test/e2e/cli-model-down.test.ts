// A model that cannot load is a component down, not a config error: through the CLI (runCli in-process, offline),
// eval and tune exit 3 naming the vector leg or the reranker and why, --allow-degraded measures lexical-only and
// records the run as degraded — while indexing and `serve`'s start still refuse to run without the model.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { runCli } from '../../src/cli/main.js';
import { evalHistoryIn, kbOwnFolderFor } from '../support/kb-own-folder.js';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';
import { copyModelFolder, ensureTinyModel } from '../support/test-models.js';

const NAMES = ['ant', 'bee', 'cat', 'dog', 'eel', 'fox', 'gnu', 'hen', 'ibis', 'jay', 'kiwi', 'lynx'];

let kb: TempKb;
let modelDir: string;

const modelDownEnv = () => ({ GROOVE_OFFLINE: '1', GROOVE_MODEL_DIR: path.join(kb.root, 'model-cache') });

async function groove(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s) },
    env: modelDownEnv(),
    cwd: kb.root,
  });
  return { code, stdout, stderr };
}
const where = () => ['--kb-path', kb.kbPath, '--db-path', kb.dbPath];

/** The model the index was built with loses its ONNX file. */
const breakModel = () => fs.rmSync(path.join(modelDir, 'onnx', 'model.onnx'));

beforeEach(async () => {
  const files: Record<string, string> = {};
  for (const name of NAMES) files[`notes/${name}.md`] = noteText(name);
  files['.groove-eval.yml'] = `queries:\n${NAMES.map(
    (name) => `  - id: ${name}\n    query: "note ${name}"\n    expected:\n      - path: notes/${name}.md\n`,
  ).join('')}`;
  kb = createTempKb(files);
  modelDir = copyModelFolder(ensureTinyModel('embed'), path.join(kb.root, 'model'));
  const indexed = await groove('index', ...where(), '--model-dir', modelDir);
  expect(indexed.code, indexed.stderr).toBe(0);
});
afterEach(() => kb.cleanup());

describe('the embedding model cannot load', () => {
  it('eval exits 3 with the vector leg down and why; --allow-degraded measures and records it', async () => {
    breakModel();
    const refused = await groove('eval', ...where());
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toMatch(
      /^groove: error: component down: vector — failed: Model folder ".*" is damaged: "onnx\/model\.onnx" is missing/,
    );
    expect(fs.existsSync(evalHistoryIn(kbOwnFolderFor(kb.kbPath, modelDownEnv(), kb.root)))).toBe(false);

    const anyway = await groove('eval', ...where(), '--allow-degraded', '--format', 'json');
    expect(anyway.code, anyway.stderr).toBe(0);
    const run = JSON.parse(anyway.stdout) as { degraded: boolean; fingerprint: { degraded: string[] } };
    expect(run.degraded).toBe(true);
    expect(run.fingerprint.degraded).toEqual(['vector']);
    expect(anyway.stderr).toContain('measured with a component down (--allow-degraded): vector');
  });

  it('tune exits 3 with the vector leg down; --allow-degraded sweeps anyway', async () => {
    breakModel();
    const refused = await groove('tune', ...where());
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toMatch(/^groove: error: component down: vector — failed: Model folder /);
    const anyway = await groove('tune', ...where(), '--allow-degraded');
    expect(anyway.stderr).toContain('sweeping with a component down (--allow-degraded)');
    expect(anyway.code, anyway.stderr).toBe(0);
  });

  it('search answers from the lexical leg and says the vector leg failed', async () => {
    breakModel();
    const search = await groove('search', 'note ant', ...where(), '--format', 'json');
    expect(search.code, search.stderr).toBe(0);
    const response = JSON.parse(search.stdout);
    expect(response.legs.lexical.status).toBe('ok');
    expect(response.legs.vector).toMatchObject({ status: 'failed', candidates: 0 });
    expect(response.legs.vector.error).toMatch(/^Model folder ".*" is damaged/);
  });

  it('a different model asked for that cannot load is reported as itself, not as the index model down', async () => {
    const other = await groove('eval', ...where(), '--model', 'bge-small-en-v1.5');
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/^groove: error: Model "bge-small-en-v1\.5" .* is not in the model cache/);
  });

  it('indexing and serve warm-up still refuse to run without the model', async () => {
    breakModel();
    kb.write('notes/new.md', noteText('new'));
    const index = await groove('index', ...where());
    expect(index.code).toBe(1);
    expect(index.stderr).toMatch(/^groove: error: Model folder ".*" is damaged/);
    const facade = openKnowledgeBase(kb.config());
    try {
      await expect(facade.warmUp()).rejects.toMatchObject({ code: 'MODEL_CORRUPT' });
    } finally {
      await facade.close();
    }
  });
});

describe('the reranker cannot load', () => {
  it('eval with a reranker that is not in the cache exits 3 with the reranker down', async () => {
    const refused = await groove('eval', ...where(), '--reranker', 'bge-reranker-base');
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toMatch(
      /^groove: error: component down: reranker — failed: Model "bge-reranker-base" .* is not in the model cache/,
    );
    const anyway = await groove('eval', ...where(), '--reranker', 'bge-reranker-base', '--allow-degraded');
    expect(anyway.code, anyway.stderr).toBe(0);
    expect(anyway.stderr).toContain('measured with a component down (--allow-degraded): reranker');
  });
});
