// Real indexes for `groove doctor` tests: the sample KB indexed once lexical-only and once with a generated model
// (built through the CLI, in-process), copied afresh for each case so a case can damage its copy with direct SQL.
// Test-only.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { type CliRun, runGroove } from './run-cli.js';
import { copyModelFolder, ensureTinyModel } from './test-models.js';

const sampleKb = path.resolve(import.meta.dirname, '../../examples/sample-kb');

export type { CliRun } from './run-cli.js';

export interface DoctorJson {
  kb_path: string;
  db_path: string;
  documents: number;
  chunks: number;
  vectors: number;
  model: string;
  schema_version: number;
  checked: string[];
  findings: {
    check: string;
    severity: 'error' | 'warning';
    summary: string;
    count: number;
    samples: string[];
    remedy: string;
  }[];
}

export type IndexKind = 'lexical' | 'model';

export interface DoctorFixture {
  workDir: string;
  kbPath: string;
  /** The generated model folder the model index was built from (a copy of its own). */
  modelDir: string;
  groove(args: string[]): Promise<CliRun>;
  /** A fresh copy of a healthy index of this kind, at a path of its own. */
  freshIndex(kind: IndexKind): string;
  /** Run SQL on an index with foreign keys off (so a test can break the rules they would keep). */
  damage(dbPath: string, sql: string): void;
  doctorJson(dbPath: string, extra?: string[]): Promise<{ code: number; report: DoctorJson }>;
  cleanup(): void;
}

/** Build both healthy indexes; every case then works on copies. */
export async function createDoctorFixture(): Promise<DoctorFixture> {
  const workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-doctor-')));
  const kbPath = path.join(workDir, 'kb');
  fs.cpSync(sampleKb, kbPath, { recursive: true });
  const modelDir = copyModelFolder(ensureTinyModel('embed'), path.join(workDir, 'model'));
  let copies = 0;
  const groove = (args: string[]): Promise<CliRun> => runGroove(args, { cwd: workDir });
  const pristine: Record<IndexKind, string> = {
    lexical: path.join(workDir, 'pristine-lexical.db'),
    model: path.join(workDir, 'pristine-model.db'),
  };
  const flags: Record<IndexKind, string[]> = {
    lexical: ['--model', 'none'],
    model: ['--model-dir', modelDir],
  };
  for (const kind of ['lexical', 'model'] as const) {
    const run = await groove([
      'index',
      '--kb-path',
      kbPath,
      '--db-path',
      pristine[kind],
      ...flags[kind],
      '--quiet',
    ]);
    expect(run.code, run.stderr).toBe(0);
  }
  const fixture: DoctorFixture = {
    workDir,
    kbPath,
    modelDir,
    groove,
    freshIndex(kind) {
      const folder = path.join(workDir, `case-${++copies}`);
      fs.mkdirSync(folder);
      const dbPath = path.join(folder, 'index.db');
      fs.copyFileSync(pristine[kind], dbPath);
      return dbPath;
    },
    damage(dbPath, sql) {
      const db = new Database(dbPath);
      try {
        db.pragma('foreign_keys = OFF');
        db.exec(sql);
      } finally {
        db.close();
      }
    },
    async doctorJson(dbPath, extra = []) {
      const run = await groove([
        'doctor',
        '--kb-path',
        kbPath,
        '--db-path',
        dbPath,
        '--format',
        'json',
        ...extra,
      ]);
      expect(run.stderr).toBe('');
      return { code: run.code, report: JSON.parse(run.stdout) as DoctorJson };
    },
    cleanup() {
      fs.rmSync(workDir, { recursive: true, force: true });
    },
  };
  return fixture;
}

/** The check ids of a report's findings, in report order. */
export function checksOf(report: DoctorJson): string[] {
  return report.findings.map((finding) => finding.check);
}

/** SHA-256 of a file's bytes. */
export function hashFile(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}
