import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadEvalHistory, saveEvalHistory } from '../../src/app/eval/eval-history.js';
import { evalRunToJson } from '../../src/app/eval/eval-run-json.js';
import { GrooveError } from '../../src/errors.js';
import { writeFileAtomic } from '../../src/fs/atomic-write.js';
import { readCheckedFile } from '../../src/fs/checked-read.js';
import type { EvalRun } from '../../src/measure/eval-run.js';

let dir: string;
let historyPath: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-'));
  historyPath = path.join(dir, '.groove-eval-history.json');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const load = (maxBytes?: number) => loadEvalHistory(historyPath, { read: readCheckedFile, maxBytes });
const save = (run: EvalRun, options: { historySize?: number; maxBytes?: number } = {}) =>
  saveEvalHistory(load(), run, {
    historySize: options.historySize ?? 10,
    maxBytes: options.maxBytes,
    write: (file, text) => writeFileAtomic(file, text),
  });

function makeRun(stamp: string, queries = 1): EvalRun {
  return {
    timestamp: stamp,
    fingerprint: {
      model: 'none',
      reranker: null,
      limit: 10,
      kValues: [1, 5, 10],
      goldenHash: 'h',
      metricVersion: 2,
      ftsQueryVersion: 4,
    },
    corpus: { documents: 3, chunks: 7, digest: 'd' },
    aggregate: {
      recallAtK: { 1: 0.5, 5: 1, 10: 1 },
      mrr: 0.75,
      ndcgAtK: { 1: 0.5, 5: 0.8, 10: 0.8 },
      queryCount: queries,
    },
    perQuery: Array.from({ length: queries }, (_, i) => ({
      id: `q${i}`,
      query: `query number ${i}`,
      expected: [{ path: 'a.md', heading: null }],
      topK: [{ rank: 1, path: 'a.md', heading: 'Intro', score: 0.03 }],
      metrics: { recallAtK: { 1: 1, 5: 1, 10: 1 }, reciprocalRank: 1, ndcgAtK: { 1: 1, 5: 1, 10: 1 } },
    })),
    findings: [],
  };
}

function refusal(read: () => unknown): GrooveError {
  try {
    read();
  } catch (error) {
    if (error instanceof GrooveError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('eval history file', () => {
  it('starts empty when the file does not exist', () => {
    expect(load()).toEqual({ path: historyPath, runs: [], stored: [], warnings: [], legacyPath: null });
  });

  it('reads a history kept inside the KB by older versions until its own exists, and saves to its own', () => {
    const legacyPath = path.join(dir, 'kb-history.json');
    const fromLegacy = () => loadEvalHistory(historyPath, { read: readCheckedFile, legacyPath });
    save(makeRun('t1'));
    fs.renameSync(historyPath, legacyPath);
    const legacyBytes = fs.readFileSync(legacyPath);
    const first = fromLegacy();
    expect(first.path).toBe(historyPath);
    expect(first.runs.map((run) => run.timestamp)).toEqual(['t1']);
    expect(first.warnings.join(' ')).toContain(legacyPath);
    saveEvalHistory(first, makeRun('t2'), {
      historySize: 10,
      write: (file, text) => writeFileAtomic(file, text),
    });
    expect(fromLegacy().runs.map((run) => run.timestamp)).toEqual(['t2', 't1']);
    expect(fromLegacy().warnings).toEqual([]);
    expect(fs.readFileSync(legacyPath)).toEqual(legacyBytes);
  });

  it('keeps runs newest first, at most history_size, as pretty JSON the reader takes back', () => {
    for (const stamp of ['t1', 't2', 't3']) save(makeRun(stamp), { historySize: 2 });
    const history = load();
    expect(history.runs.map((r) => r.timestamp)).toEqual(['t3', 't2']);
    expect(history.runs[0]).toEqual(makeRun('t3'));
    const text = fs.readFileSync(historyPath, 'utf8');
    expect(text).toBe(`${JSON.stringify({ runs: history.stored }, null, 2)}\n`);
    // Empty findings are left out of the stored form.
    expect(text).not.toContain('"findings"');
  });

  it('reads runs written before metric_version, fts_query_version and corpus existed, and keeps them verbatim', () => {
    const legacy = evalRunToJson(makeRun('old')) as Record<string, unknown>;
    const fingerprint = { ...(legacy.fingerprint as Record<string, unknown>) };
    delete fingerprint.metric_version;
    delete fingerprint.fts_query_version;
    const stored = { ...legacy, fingerprint, corpus: undefined, future_field: { kept: true } };
    fs.writeFileSync(historyPath, JSON.stringify({ runs: [stored] }));
    const history = load();
    expect(history.warnings).toEqual([]);
    expect(history.runs[0]!.fingerprint.metricVersion).toBe(1);
    expect(history.runs[0]!.fingerprint.ftsQueryVersion).toBe(1);
    expect(history.runs[0]!.corpus).toBeNull();
    save(makeRun('new'));
    const rewritten = JSON.parse(fs.readFileSync(historyPath, 'utf8')) as { runs: Record<string, unknown>[] };
    expect(rewritten.runs[1]!.future_field).toEqual({ kept: true });
    expect((rewritten.runs[1]!.fingerprint as Record<string, unknown>).metric_version).toBeUndefined();
  });

  it('warns and starts fresh on content that does not parse, then saves over it', () => {
    fs.writeFileSync(historyPath, '{"runs": [');
    const history = load();
    expect(history.runs).toEqual([]);
    expect(history.warnings[0]).toMatch(/not valid JSON.*starting a fresh history/);
    save(makeRun('t1'));
    expect(load().runs.map((r) => r.timestamp)).toEqual(['t1']);
  });

  it('treats valid JSON of the wrong shape as unparsable: warn, start fresh', () => {
    for (const content of ['[1, 2]', '{"runs": 5}', '{"runs": [{"aggregate": "high"}]}', '{"runs": [3]}']) {
      fs.writeFileSync(historyPath, content);
      const history = load();
      expect(history.runs, content).toEqual([]);
      expect(history.warnings, content).toHaveLength(1);
    }
  });

  it('refuses a symlinked history instead of replacing it', () => {
    const real = path.join(dir, 'real.json');
    save(makeRun('t1'));
    fs.renameSync(historyPath, real);
    fs.symlinkSync(real, historyPath);
    const error = refusal(() => load());
    expect(error.code).toBe('HISTORY_INVALID');
    expect(error.message).toContain('symbolic link');
    expect(error.hint).toContain('--no-history');
  });

  it('refuses a hard-linked history, a directory and one over the byte cap', () => {
    save(makeRun('t1'));
    fs.linkSync(historyPath, path.join(dir, 'second-name.json'));
    expect(refusal(() => load()).message).toContain('hard link');
    fs.rmSync(path.join(dir, 'second-name.json'));
    expect(refusal(() => load(100)).message).toMatch(/over the 100-byte cap/);
    fs.rmSync(historyPath);
    fs.mkdirSync(historyPath);
    expect(refusal(() => load()).message).toContain('not a regular file');
  });

  it('drops the oldest runs to fit the byte cap, with a warning naming how many were kept', () => {
    const one =
      Buffer.byteLength(
        JSON.stringify({ runs: [evalRunToJson(makeRun('t0'), { forHistory: true })] }, null, 2),
      ) + 1;
    save(makeRun('t1'));
    save(makeRun('t2'));
    const result = save(makeRun('t3'), { maxBytes: one * 2 });
    expect(result.keptRuns).toBe(2);
    expect(result.warning).toMatch(/trimmed to 2 run\(s\)/);
    expect(fs.statSync(historyPath).size).toBeLessThanOrEqual(one * 2);
    expect(load().runs.map((r) => r.timestamp)).toEqual(['t3', 't2']);
  });

  it('reports a single run that cannot fit and leaves the file alone', () => {
    save(makeRun('t1'));
    const before = fs.readFileSync(historyPath, 'utf8');
    const error = refusal(() => save(makeRun('big', 50), { maxBytes: 2000 }));
    expect(error.code).toBe('FILE_WRITE_FAILED');
    expect(error.message).toMatch(/this run alone serialises to \d+ bytes, over the 2000-byte cap/);
    expect(error.hint).toContain('--no-history');
    expect(fs.readFileSync(historyPath, 'utf8')).toBe(before);
  });
});
