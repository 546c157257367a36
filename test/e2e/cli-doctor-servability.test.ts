// `groove doctor`'s servability checks on real indexes: a writer lock left by a dead process or by another host,
// the index's model missing or damaged, a golden sidecar that is stale, drifted or unreadable, and the files the
// last index run refused with their reasons.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksOf, createDoctorFixture, type DoctorFixture, hashFile } from '../support/doctor-fixture.js';
import { deadPid, holdLock } from '../support/lock-holder.js';
import { makeDocx } from '../support/office-files.js';
import { copyModelFolder } from '../support/test-models.js';

let fixture: DoctorFixture;
beforeAll(async () => {
  fixture = await createDoctorFixture();
});
afterAll(() => fixture.cleanup());

describe('the writer lock', () => {
  it("a dead writer's lock is a stale-writer-lock warning naming the pid", async () => {
    const dbPath = fixture.freshIndex('lexical');
    const pid = deadPid();
    fs.writeFileSync(`${dbPath}.lock`, `${JSON.stringify({ pid, host: os.hostname() })}\n`);
    const { code, report } = await fixture.doctorJson(dbPath);
    expect(code).toBe(1);
    expect(checksOf(report)).toEqual(['stale-writer-lock']);
    expect(report.findings[0]).toMatchObject({ severity: 'warning', samples: [`${dbPath}.lock`] });
    expect(report.findings[0]!.summary).toContain(`process ${pid} is not running`);
    expect(fs.existsSync(`${dbPath}.lock`)).toBe(true); // reported, not removed
  });

  it('an empty lock file is stale too', async () => {
    const dbPath = fixture.freshIndex('lexical');
    fs.writeFileSync(`${dbPath}.lock`, '');
    const { report } = await fixture.doctorJson(dbPath);
    expect(checksOf(report)).toEqual(['stale-writer-lock']);
  });

  it("another host's lock cannot be judged from here", async () => {
    const dbPath = fixture.freshIndex('lexical');
    fs.writeFileSync(`${dbPath}.lock`, `${JSON.stringify({ pid: 1, host: 'elsewhere.invalid' })}\n`);
    const { report } = await fixture.doctorJson(dbPath);
    expect(checksOf(report)).toEqual(['writer-lock-other-host']);
    expect(report.findings[0]!.summary).toContain('"elsewhere.invalid"');
  });

  it('the lock of a live writer is no finding; once that writer is killed it is stale', async () => {
    const dbPath = fixture.freshIndex('lexical');
    const holder = await holdLock('index', dbPath);
    try {
      const { code, report } = await fixture.doctorJson(dbPath);
      expect(code).toBe(0);
      expect(report.findings).toEqual([]);
    } finally {
      await holder.kill();
    }
    const { report } = await fixture.doctorJson(dbPath);
    expect(checksOf(report)).toEqual(['stale-writer-lock']);
    expect(report.findings[0]!.summary).toContain(`process ${holder.pid} is not running`);
  });
});

describe("the index's model", () => {
  /** A model index built from its own copy of the generated model, which the case may then break. */
  async function indexWithOwnModel(): Promise<{ dbPath: string; modelDir: string }> {
    const dbPath = fixture.freshIndex('lexical').replace(/index\.db$/, 'own-model.db');
    const modelDir = copyModelFolder(fixture.modelDir, path.join(path.dirname(dbPath), 'model'));
    const run = await fixture.groove([
      'index',
      '--kb-path',
      fixture.kbPath,
      '--db-path',
      dbPath,
      '--model-dir',
      modelDir,
      '--quiet',
    ]);
    expect(run.code, run.stderr).toBe(0);
    return { dbPath, modelDir };
  }

  it('a model folder that is gone is model-files-missing, an error naming the folder', async () => {
    const { dbPath, modelDir } = await indexWithOwnModel();
    fs.rmSync(modelDir, { recursive: true });
    const { code, report } = await fixture.doctorJson(dbPath);
    expect(code).toBe(1);
    expect(checksOf(report)).toEqual(['model-files-missing']);
    expect(report.findings[0]).toMatchObject({ severity: 'error', samples: [modelDir] });
    expect(report.findings[0]!.remedy).toContain(modelDir);
  });

  it("a damaged model folder's finding carries the loader's fix", async () => {
    const { dbPath, modelDir } = await indexWithOwnModel();
    fs.rmSync(path.join(modelDir, 'tokenizer.json'));
    const { report } = await fixture.doctorJson(dbPath);
    expect(checksOf(report)).toEqual(['model-files-missing']);
    expect(report.findings[0]!.summary).toContain('tokenizer.json');
    expect(report.findings[0]!.remedy).toContain('replace');
  });

  it('a registered model absent from the model cache says to pull it', async () => {
    const dbPath = fixture.freshIndex('model');
    fixture.damage(
      dbPath,
      `UPDATE index_meta SET value = 'transformers:multilingual-e5-small' WHERE key = 'embedding_model';
       UPDATE index_meta SET value = '' WHERE key = 'embedding_model_dir'`,
    );
    const { report } = await fixture.doctorJson(dbPath);
    expect(checksOf(report)).toEqual(['model-files-missing']);
    expect(report.findings[0]!.summary).toContain('not in the model cache');
    expect(report.findings[0]!.remedy).toBe('groove models pull multilingual-e5-small');
  });
});

describe('the golden set', () => {
  /** A groove.toml pointing [eval] golden outside the KB, and the sidecar next to that golden file. */
  function withSidecar(sidecar: string): string[] {
    const folder = fs.mkdtempSync(path.join(fixture.workDir, 'golden-'));
    const golden = path.join(folder, 'golden.yml');
    fs.writeFileSync(golden, 'queries: []\n');
    fs.writeFileSync(path.join(folder, 'golden.meta.yml'), sidecar);
    const config = path.join(folder, 'groove.toml');
    fs.writeFileSync(config, `[eval]\ngolden = "${golden}"\n`);
    return ['--config', config];
  }
  const sidecar = (created: string, documents: number, chunks: number) =>
    `created: ${created}\ncorpus_documents: ${documents}\ncorpus_chunks: ${chunks}\nsource: stamp\n`;

  it('a fresh sidecar matching the corpus is no finding', async () => {
    const args = withSidecar(sidecar(new Date().toISOString(), 7, 16));
    const { code, report } = await fixture.doctorJson(fixture.freshIndex('lexical'), args);
    expect(code).toBe(0);
    expect(report.checked).toEqual(expect.arrayContaining(['golden-stale', 'golden-drifted']));
  });

  it('a sidecar past max_golden_age_days is golden-stale', async () => {
    const args = withSidecar(sidecar('2020-01-01T00:00:00Z', 7, 16));
    const { report } = await fixture.doctorJson(fixture.freshIndex('lexical'), args);
    expect(checksOf(report)).toEqual(['golden-stale']);
    expect(report.findings[0]!.summary).toMatch(/days old .*max_golden_age_days = 30/);
  });

  it('a corpus that moved past golden_drift_warn is golden-drifted', async () => {
    const args = withSidecar(sidecar(new Date().toISOString(), 5, 10));
    const { report } = await fixture.doctorJson(fixture.freshIndex('lexical'), args);
    expect(checksOf(report)).toEqual(['golden-drifted']);
    expect(report.findings[0]!.summary).toContain('documents 5 → 7, chunks 10 → 16');
  });

  it('a sidecar eval cannot read is golden-sidecar-invalid', async () => {
    const args = withSidecar('created: yesterday\n');
    const { report } = await fixture.doctorJson(fixture.freshIndex('lexical'), args);
    expect(checksOf(report)).toEqual(['golden-sidecar-invalid']);
    expect(report.findings[0]!.summary).toContain('golden.meta.yml');
  });
});

describe('files the last index run refused', () => {
  it('are listed with their reasons, and a file whose older version is indexed says so', async () => {
    const kbPath = path.join(fixture.workDir, 'refusing-kb');
    fs.cpSync(fixture.kbPath, kbPath, { recursive: true });
    const dbPath = path.join(fixture.workDir, 'refusing.db');
    const index = () =>
      fixture.groove(['index', '--kb-path', kbPath, '--db-path', dbPath, '--model', 'none', '--quiet']);
    expect((await index()).code).toBe(0);
    fs.writeFileSync(path.join(kbPath, 'image.md'), Buffer.from([0x89, 0x50, 0x00, 0x47]));
    fs.writeFileSync(path.join(kbPath, 'empty.md'), '---\ntitle: nothing\n---\n');
    fs.appendFileSync(path.join(kbPath, 'guides/search-syntax.md'), '\u0000');
    expect((await index()).code).toBe(0);

    const before = hashFile(dbPath);
    const run = await fixture.groove([
      'doctor',
      '--kb-path',
      kbPath,
      '--db-path',
      dbPath,
      '--format',
      'json',
    ]);
    expect(run.code).toBe(1);
    const [finding, empty] = JSON.parse(run.stdout).findings;
    expect(finding).toMatchObject({ check: 'skipped-files', severity: 'warning', count: 2 });
    expect(finding.samples).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^skipped image\.md: .*binary/),
        expect.stringMatching(
          /^skipped guides\/search-syntax\.md: .*binary.*; its earlier version is still indexed$/,
        ),
      ]),
    );
    // A file with no text is a fact, not a problem: an info finding of its own.
    expect(empty).toMatchObject({ check: 'empty-files', severity: 'info', count: 1, samples: ['empty.md'] });
    expect(hashFile(dbPath)).toBe(before);

    // The next run replaces the record: fixed files leave it.
    fs.rmSync(path.join(kbPath, 'image.md'));
    fs.rmSync(path.join(kbPath, 'empty.md'));
    fs.cpSync(
      path.join(fixture.kbPath, 'guides/search-syntax.md'),
      path.join(kbPath, 'guides/search-syntax.md'),
    );
    expect((await index()).code).toBe(0);
    const after = await fixture.groove(['doctor', '--kb-path', kbPath, '--db-path', dbPath]);
    expect(after.code, after.stdout).toBe(0);
  });

  it('an empty .docx is an info finding: doctor exits 0', async () => {
    const kbPath = path.join(fixture.workDir, 'empty-docx-kb');
    fs.cpSync(fixture.kbPath, kbPath, { recursive: true });
    fs.writeFileSync(path.join(kbPath, 'blank.docx'), await makeDocx({ blocks: [] }));
    const config = path.join(fixture.workDir, 'empty-docx.toml');
    fs.writeFileSync(config, '[parsers]\nenabled = ["md", "docx"]\n');
    const dbPath = path.join(fixture.workDir, 'empty-docx.db');
    const args = ['--kb-path', kbPath, '--db-path', dbPath, '--config', config];
    expect((await fixture.groove(['index', ...args, '--model', 'none', '--quiet'])).code).toBe(0);
    const run = await fixture.groove(['doctor', ...args, '--format', 'json']);
    expect(run.code, run.stdout).toBe(0);
    expect(JSON.parse(run.stdout).findings).toEqual([
      expect.objectContaining({ check: 'empty-files', severity: 'info', count: 1, samples: ['blank.docx'] }),
    ]);
  });
});

describe('note links', () => {
  it('read with older link rules, or never, are a links-not-read warning until the next groove index', async () => {
    const dbPath = fixture.freshIndex('lexical');
    fixture.damage(
      dbPath,
      "UPDATE index_meta SET value = json_remove(value, '$.links') WHERE key = 'chunk_policy'",
    );
    const { code, report } = await fixture.doctorJson(dbPath);
    expect(code).toBe(1);
    expect(checksOf(report)).toEqual(['links-not-read']);
    expect(report.findings[0]).toMatchObject({ severity: 'warning', count: 7 });
    expect(report.findings[0]!.summary).toContain('last read never');
    const index = await fixture.groove([
      'index',
      '--kb-path',
      fixture.kbPath,
      '--db-path',
      dbPath,
      '--quiet',
    ]);
    expect(index.code, index.stderr).toBe(0);
    expect((await fixture.doctorJson(dbPath)).report.findings).toEqual([]);
  });

  it('are an info finding (exit 0) naming the first five; attachments and resolved links are not counted', async () => {
    const kbPath = path.join(fixture.workDir, 'linking-kb');
    fs.cpSync(fixture.kbPath, kbPath, { recursive: true });
    const missing = Array.from({ length: 7 }, (_, i) => `[[Not written ${i}]]`).join(' ');
    fs.writeFileSync(
      path.join(kbPath, 'links.md'),
      `# Links\n\n${missing} [ok](guides/password-reset.md) ![[diagram.png]] [pdf](spec.pdf) [gone](gone.md)\n`,
    );
    const dbPath = path.join(fixture.workDir, 'linking.db');
    const index = await fixture.groove([
      'index',
      '--kb-path',
      kbPath,
      '--db-path',
      dbPath,
      '--model',
      'none',
      '--quiet',
    ]);
    expect(index.code, index.stderr).toBe(0);
    const doctor = (format: string) =>
      fixture.groove(['doctor', '--kb-path', kbPath, '--db-path', dbPath, '--format', format]);

    const json = await doctor('json');
    expect(json.code).toBe(0);
    const findings = JSON.parse(json.stdout).findings;
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ check: 'links-dangling', severity: 'info', count: 8 });
    expect(findings[0].samples).toEqual([
      'links.md → Not written 0',
      'links.md → Not written 1',
      'links.md → Not written 2',
      'links.md → Not written 3',
      'links.md → Not written 4',
    ]);
    const text = await doctor('text');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      'info     links-dangling (8): 8 links in the notes to a note that is not indexed',
    );
    expect(text.stdout).toContain('           … and 3 more');
    expect(text.stdout).toMatch(/1 finding: 0 errors, 0 warnings, 1 info \(\d+ checks run\)/);
  });

  it('do not apply to an index from before links (schema 3), which doctor reports as outdated', async () => {
    const dbPath = fixture.freshIndex('lexical');
    fixture.damage(
      dbPath,
      "DROP TABLE links; DROP TABLE document_names; UPDATE index_meta SET value = '3' WHERE key = 'schema_version'",
    );
    const { code, report } = await fixture.doctorJson(dbPath);
    expect(code).toBe(1);
    expect(checksOf(report)).toEqual(['schema-outdated']);
    expect(report.checked).not.toContain('links-dangling');
  });
});
