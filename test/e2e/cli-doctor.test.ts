// `groove doctor` on healthy indexes (lexical-only and with a generated model): no findings and exit 0, the JSON
// shape, the text report, the index file left byte-identical; damaged and foreign files described as findings
// (exit 1), and exit 2 only when there is nothing doctor can look at.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spliceDoctorTable } from '../../scripts/doctor-doc.js';
import { DOCTOR_CHECKS } from '../../src/app/doctor/index.js';
import { damageIndex, writeForeignDatabase } from '../support/damage-index.js';
import { createDoctorFixture, type DoctorFixture, hashFile } from '../support/doctor-fixture.js';

let fixture: DoctorFixture;
beforeAll(async () => {
  fixture = await createDoctorFixture();
});
afterAll(() => fixture.cleanup());

const INTEGRITY = [
  'database-damaged',
  'schema-newer',
  'schema-outdated',
  'table-missing',
  'vector-table-missing',
  'fts-table-missing',
  'chunk-without-document',
  'document-without-chunks',
];

describe('a healthy index', () => {
  it('lexical-only: no findings, exit 0, and the model checks do not apply', async () => {
    const dbPath = fixture.freshIndex('lexical');
    const { code, report } = await fixture.doctorJson(dbPath);
    expect(code).toBe(0);
    expect(report.findings).toEqual([]);
    expect(report).toMatchObject({ documents: 7, chunks: 16, vectors: 0, model: 'none', schema_version: 5 });
    expect(report.checked).toEqual(
      expect.arrayContaining([...INTEGRITY, 'missing-fts-row', 'skipped-files']),
    );
    expect(report.checked).not.toContain('missing-embedding');
    expect(report.checked).not.toContain('model-files-missing');
  });

  it('with a model: no findings, and the vector and model checks ran', async () => {
    const dbPath = fixture.freshIndex('model');
    const { code, report } = await fixture.doctorJson(dbPath);
    expect(code).toBe(0);
    expect(report.findings).toEqual([]);
    expect(report.vectors).toBe(report.chunks);
    expect(report.model).toBe(`transformers:${fixture.modelDir}`);
    expect(report.checked).toEqual(
      expect.arrayContaining([
        'missing-embedding',
        'orphan-embedding',
        'embedding-wrong-size',
        'model-files-missing',
      ]),
    );
  });

  it('prints one summary line per fact and "no findings" as text', async () => {
    const dbPath = fixture.freshIndex('lexical');
    const run = await fixture.groove(['doctor', '--kb-path', fixture.kbPath, '--db-path', dbPath]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        `groove doctor: ${dbPath}`,
        '  7 documents, 16 chunks, 0 vectors; model none; schema 5',
        'no findings (20 checks passed)',
        '',
      ].join('\n'),
    );
  });

  it('leaves the index byte-identical and writes nothing into the WAL', async () => {
    const dbPath = fixture.freshIndex('model');
    const before = hashFile(dbPath);
    await fixture.doctorJson(dbPath);
    await fixture.groove(['doctor', '--kb-path', fixture.kbPath, '--db-path', dbPath]);
    expect(hashFile(dbPath)).toBe(before);
    // A reader of a WAL-mode file may create the companions SQLite needs, but writes nothing into them.
    expect(fs.statSync(`${dbPath}-wal`, { throwIfNoEntry: false })?.size ?? 0).toBe(0);
    expect(fs.existsSync(`${dbPath}.lock`)).toBe(false);
  });
});

describe('the JSON report', () => {
  it('has the report keys, and each finding exactly check, severity, summary, count, samples, remedy', async () => {
    const dbPath = fixture.freshIndex('model');
    fixture.damage(dbPath, 'INSERT INTO chunk_vectors(chunk_id, embedding) VALUES (424242, zeroblob(128))');
    const { code, report } = await fixture.doctorJson(dbPath);
    expect(code).toBe(1);
    expect(Object.keys(report).sort()).toEqual(
      [
        'checked',
        'chunks',
        'db_path',
        'documents',
        'findings',
        'kb_path',
        'model',
        'schema_version',
        'vectors',
      ].sort(),
    );
    expect(report.db_path).toBe(dbPath);
    expect(report.kb_path).toBe(fixture.kbPath);
    expect(report.findings).toEqual([
      {
        check: 'orphan-embedding',
        severity: 'error',
        summary: '1 vector whose chunk is gone: vector searches spend result slots on them',
        count: 1,
        samples: ['chunk id 424242'],
        remedy: 'groove index --force (rebuilds the index from the files and swaps it in when complete)',
      },
    ]);
  });

  it('lists errors before warnings', async () => {
    const dbPath = fixture.freshIndex('lexical');
    fixture.damage(
      dbPath,
      `DELETE FROM chunk_word_counts WHERE chunk_id = (SELECT min(id) FROM chunks);
       INSERT INTO fts_chunks(rowid, heading, context, content) VALUES (424242, 'h', 'c', 'ghost')`,
    );
    const { report } = await fixture.doctorJson(dbPath);
    expect(report.findings.map((f) => [f.severity, f.check])).toEqual([
      ['error', 'orphan-fts-row'],
      ['warning', 'word-counts-missing'],
    ]);
  });
});

describe('doctor describes whatever claims to be the index: findings, exit 1, the file unchanged', () => {
  /** doctor's JSON report on `dbPath`, checking that the run exits 1 and leaves the file byte-identical. */
  const diagnose = async (dbPath: string) => {
    const before = hashFile(dbPath);
    const { code, report } = await fixture.doctorJson(dbPath);
    expect(code).toBe(1);
    expect(hashFile(dbPath)).toBe(before);
    return report;
  };

  it.each(['documents', 'index_meta'])('an index whose %s table was dropped', async (table) => {
    const dbPath = fixture.freshIndex('lexical');
    fixture.damage(dbPath, `DROP TABLE ${table}`);
    const report = await diagnose(dbPath);
    expect(report.findings).toContainEqual(
      expect.objectContaining({ check: 'table-missing', severity: 'error', samples: [table] }),
    );
    expect(report.findings.map((f) => f.check)).not.toContain('not-a-groove-index');
  });

  it("someone else's SQLite file: not a groove index, with its tables", async () => {
    const dbPath = path.join(fixture.workDir, 'recipes.db');
    writeForeignDatabase(dbPath);
    const report = await diagnose(dbPath);
    expect(report.findings[0]).toMatchObject({
      check: 'not-a-groove-index',
      severity: 'error',
      samples: ['table recipes'],
    });
    expect(report.findings.map((f) => f.check)).toContain('table-missing');
  });

  it('a file that is not SQLite at all', async () => {
    const dbPath = path.join(fixture.workDir, 'notes.txt');
    fs.writeFileSync(dbPath, 'just some text, long enough to be more than a header '.repeat(4));
    const report = await diagnose(dbPath);
    expect(report.findings).toEqual([
      expect.objectContaining({ check: 'not-a-groove-index', severity: 'error' }),
    ]);
  });

  it('an index whose schema page is destroyed: damaged, in text too', async () => {
    const dbPath = fixture.freshIndex('lexical');
    damageIndex(dbPath);
    const report = await diagnose(dbPath);
    expect(report.findings).toEqual([
      expect.objectContaining({ check: 'database-damaged', severity: 'error' }),
    ]);
    const text = await fixture.groove(['doctor', '--kb-path', fixture.kbPath, '--db-path', dbPath]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('database-damaged');
    expect(text.stderr).toBe('');
  });
});

describe('when doctor cannot run it exits 2 with one line on stderr', () => {
  const expectCannotRun = async (args: string[], message: RegExp) => {
    const run = await fixture.groove(['doctor', ...args]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  };

  it('no index at the path', async () => {
    const dbPath = path.join(fixture.workDir, 'nothing-here.db');
    await expectCannotRun(['--kb-path', fixture.kbPath, '--db-path', dbPath], /no index at/);
    expect(fs.existsSync(dbPath)).toBe(false);
  });

  it('no knowledge base', async () => {
    await expectCannotRun(['--kb-path', path.join(fixture.workDir, 'missing-kb')], /is not a directory/);
  });
});

describe('docs/doctor.md', () => {
  const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/doctor.md'), 'utf8');

  it('holds the check table rendered from the check declarations', () => {
    expect(doc === spliceDoctorTable(doc), 'docs/doctor.md is out of date: run `npm run docs:doctor`').toBe(
      true,
    );
  });

  it("lists every check with its severity in groove doctor's table", () => {
    const rows = [...doc.matchAll(/^\| `([a-z-]+)` \| (error|warning|info) \|/gm)].map((m) => [m[1], m[2]]);
    const expected = [
      ...DOCTOR_CHECKS.map((c) => [c.check, c.severity]),
      ['check-failed', 'error'],
      ['not-a-groove-index', 'error'],
    ];
    expect(rows).toEqual(expected);
  });
});
