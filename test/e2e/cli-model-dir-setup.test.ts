// `--model-dir` pooling and prefixes through the CLI (runCli in-process, offline): what each kind of folder gets,
// what `groove status` shows, that the index records the choice for later commands, and that changing it on an
// existing index is refused like a model change.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findEmbeddingModel } from '../../src/models/model-registry.js';
import { type CliRun, runGroove } from '../support/run-cli.js';
import { copyModelFolder, ensureTinyModel, writeRegisteredModelFolder } from '../support/test-models.js';

const sampleKb = path.resolve(import.meta.dirname, '../../examples/sample-kb');
const bge = findEmbeddingModel('bge-small-en-v1.5');
let workDir: string;
let hubDir: string;
let bareDir: string;

function groove(args: string[]): Promise<CliRun> {
  return runGroove(args, { cwd: workDir });
}

/** A copy of the sample KB in its own folder, so each has its own index. */
function newKb(name: string): string {
  const kb = path.join(workDir, name, 'kb');
  fs.cpSync(sampleKb, kb, { recursive: true });
  return kb;
}

async function statusOf(kb: string): Promise<Record<string, unknown>> {
  const run = await groove(['status', '--kb-path', kb, '--format', 'json']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

async function index(kb: string, ...flags: string[]) {
  return groove(['index', '--kb-path', kb, '--quiet', ...flags]);
}

beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-model-dir-setup-'));
  hubDir = writeRegisteredModelFolder(path.join(workDir, 'models', 'bge-hub'), bge, 'config');
  bareDir = copyModelFolder(ensureTinyModel('embed'), path.join(workDir, 'models', 'bare'));
  fs.rmSync(path.join(bareDir, '1_Pooling'), { recursive: true });
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

describe('a hub-layout folder of a registered model', () => {
  it('is indexed with that model’s pooling and prefixes, and status shows them', async () => {
    const kb = newKb('hub');
    const run = await index(kb, '--model-dir', hubDir);
    expect(run.code, run.stderr).toBe(0);
    expect(await statusOf(kb)).toMatchObject({
      pooling: 'cls',
      query_prefix: bge.queryPrefix,
      passage_prefix: '',
      setup_source: 'registered model bge-small-en-v1.5 (config.json _name_or_path "BAAI/bge-small-en-v1.5")',
    });
    const text = (await groove(['status', '--kb-path', kb])).stdout;
    expect(text).toContain('Pooling:       cls\n');
    expect(text).toContain(`Prefixes:      query "${bge.queryPrefix}", passage none\n`);
    expect(text).toContain('Setup from:    registered model bge-small-en-v1.5 (config.json _name_or_path');
  });

  it('an index made before groove recorded pooling keeps the mean pooling it was built with', async () => {
    const kb = newKb('hub-old');
    expect((await index(kb, '--model-dir', hubDir, '--pooling', 'mean', '--query-prefix', '')).code).toBe(0);
    const db = new Database((await statusOf(kb)).db_path as string);
    db.prepare("DELETE FROM index_meta WHERE key LIKE 'embedding_%' AND key NOT IN (?, ?, ?, ?)").run(
      'embedding_model',
      'embedding_provider',
      'embedding_dim',
      'embedding_model_dir',
    );
    db.close();
    expect((await groove(['status', '--kb-path', kb])).stdout).toContain('Pooling:       not recorded');
    const search = await groove(['search', 'password recovery', '--kb-path', kb]);
    expect(search.code, search.stderr).toBe(0);
    expect(JSON.parse(search.stdout).legs.vector.status).toBe('ok');
    expect((await index(kb)).code).toBe(0);
    const status = await statusOf(kb);
    expect(status).toMatchObject({ pooling: 'mean', query_prefix: '', passage_prefix: '' });
    expect(status.setup_source).toMatch(/^the rule of indexes built before groove recorded pooling/);
  });
});

describe('a folder that does not say how to pool', () => {
  it('is refused with exit 2, naming the folder and --pooling', async () => {
    const run = await index(newKb('refused'), '--model-dir', bareDir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('does not say how to pool its token vectors');
    expect(run.stderr).toContain(bareDir);
    expect(run.stderr).toContain('--pooling mean or --pooling cls');
    // A first index writes the files' text while the model loads: that much is kept and said, then the error.
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /warning: the model could not be loaded; every file is indexed and searchable by keyword/,
    );
    expect(lines[1]).toMatch(/^groove: error: Model folder/);
  });

  describe('indexed with --pooling', () => {
    let kb: string;
    beforeAll(async () => {
      kb = newKb('given');
      const run = await index(kb, '--model-dir', bareDir, '--pooling', 'cls', '--query-prefix', 'search: ');
      expect(run.code, run.stderr).toBe(0);
    });

    it('records the choice, and status shows it', async () => {
      expect(await statusOf(kb)).toMatchObject({
        pooling: 'cls',
        query_prefix: 'search: ',
        passage_prefix: '',
        setup_source: 'given: pooling, query prefix',
      });
    });

    it('later commands use the recorded choice without the flags', async () => {
      const search = await groove(['search', 'password recovery', '--kb-path', kb]);
      expect(search.code, search.stderr).toBe(0);
      expect(JSON.parse(search.stdout).legs.vector.status).toBe('ok');
      const again = await index(kb, '--model-dir', bareDir);
      expect(again.code, again.stderr).toBe(0);
      expect(await statusOf(kb)).toMatchObject({ pooling: 'cls', query_prefix: 'search: ' });
    });

    it('refuses another pooling or prefix like a model change, with the --force hint', async () => {
      for (const flags of [
        ['--pooling', 'mean'],
        ['--query-prefix', ''],
        ['--passage-prefix', 'passage: '],
      ]) {
        const run = await index(kb, '--model-dir', bareDir, ...flags);
        expect(run.code, flags.join(' ')).toBe(1);
        expect(run.stderr).toMatch(/different setup .*(pooling "cls" vs "mean"|query prefix|passage prefix)/);
        expect(run.stderr).toContain('groove index --force');
      }
      const search = await groove(['search', 'password', '--kb-path', kb, '--pooling', 'mean']);
      expect(search.code).toBe(1);
      expect(search.stderr).toContain('pooling "cls" vs "mean"');
    });

    it('takes another pooling with --force', async () => {
      const run = await index(kb, '--model-dir', bareDir, '--pooling', 'mean', '--force');
      expect(run.code, run.stderr).toBe(0);
      expect(await statusOf(kb)).toMatchObject({ pooling: 'mean', query_prefix: '' });
    });
  });
});

describe('a setup flag where it cannot apply', () => {
  it('is refused for a registered model with exit 2', async () => {
    const run = await index(newKb('registered'), '--model', 'bge-small-en-v1.5', '--pooling', 'mean');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('registered model "bge-small-en-v1.5" comes with its own pooling');
  });
});
