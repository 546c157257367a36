// Golden freshness (age refusal, drift warning, sidecar parsing), paired comparison (improved / regressed /
// indistinguishable, --compare, the significant-regression gate) and --rows, on a real lexical-only index
// with an injected clock.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';

const NAMES = ['ant', 'bee', 'cat', 'dog', 'eel', 'fox', 'gnu', 'hen', 'ibis', 'jay', 'kiwi', 'lynx'];
const DAY_MS = 24 * 60 * 60 * 1000;

let kb: TempKb | null = null;
afterEach(() => {
  kb?.cleanup();
  kb = null;
});

/** Twelve notes and a golden set whose every query finds its note at rank 1. */
function makeKb(): TempKb {
  const files: Record<string, string> = {};
  for (const name of NAMES) files[`notes/${name}.md`] = noteText(name);
  files['.groove-eval.yml'] = `queries:\n${NAMES.map(
    (name) =>
      `  - id: ${name}\n    query: "talks about ${name}alpha"\n    expected:\n      - path: notes/${name}.md\n`,
  ).join('')}`;
  kb = createTempKb(files);
  return kb;
}

/** A note that outranks `name`'s note for its golden query (the query words, repeated, in heading and body). */
function distractor(name: string): string {
  const words = `talks about ${name}alpha`;
  return `# ${words}\n\n${Array.from({ length: 8 }, () => words).join(' ')}\n`;
}

function facadeAt(temp: TempKb, clock: { now: Date }) {
  return openKnowledgeBase(temp.config({ overrides: { model: 'none' } }), { now: () => clock.now });
}

async function index(temp: TempKb, clock: { now: Date }): Promise<void> {
  const facade = facadeAt(temp, clock);
  try {
    await facade.index();
  } finally {
    await facade.close();
  }
}

describe('golden freshness', () => {
  it('without a sidecar nothing is checked', async () => {
    const temp = makeKb();
    const clock = { now: new Date('2026-03-01T00:00:00Z') };
    await index(temp, clock);
    const facade = facadeAt(temp, clock);
    try {
      const report = await facade.evaluate({ history: false });
      expect(report.freshness).toBeNull();
    } finally {
      await facade.close();
    }
  });

  it('stamp writes the sidecar; fresh at 30 days, refused at 31, measured with --allow-stale-golden', async () => {
    const temp = makeKb();
    const clock = { now: new Date('2026-03-01T00:00:00Z') };
    await index(temp, clock);
    const facade = facadeAt(temp, clock);
    try {
      const stamped = await facade.stampGolden();
      expect(stamped.metaPath).toBe(path.join(temp.kbPath, '.groove-eval.meta.yml'));
      expect(stamped.meta).toEqual({
        created: '2026-03-01T00:00:00+00:00',
        corpusDocuments: 12,
        corpusChunks: 24,
        source: 'stamp',
      });
      const text = fs.readFileSync(stamped.metaPath, 'utf8');
      expect(text).toContain(
        'created: 2026-03-01T00:00:00+00:00\ncorpus_documents: 12\ncorpus_chunks: 24\nsource: stamp\n',
      );

      clock.now = new Date(Date.parse('2026-03-01T00:00:00Z') + 30 * DAY_MS);
      const fresh = await facade.evaluate({ history: false });
      expect(fresh.freshness).toMatchObject({ ageDays: 30, stale: false, maxAgeDays: 30 });
      expect(fresh.freshness!.drift).toMatchObject({ change: 0, drifted: false });

      clock.now = new Date(Date.parse('2026-03-01T00:00:00Z') + 31 * DAY_MS);
      const error = await facade.evaluate({ history: false }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'GOLDEN_STALE' });
      expect((error as Error).message).toContain('is 31 days old (created 2026-03-01T00:00:00+00:00');
      const anyway = await facade.evaluate({ history: false, allowStaleGolden: true });
      expect(anyway.freshness).toMatchObject({ stale: true });
      expect(anyway.run.aggregate.queryCount).toBe(12);

      // Re-stamping after a re-check makes it fresh again and keeps its source.
      await facade.stampGolden();
      expect((await facade.evaluate({ history: false })).freshness!.stale).toBe(false);
    } finally {
      await facade.close();
    }
  });

  it('follows [eval] max_golden_age_days', async () => {
    const temp = makeKb();
    const clock = { now: new Date('2026-03-01T00:00:00Z') };
    await index(temp, clock);
    const config = temp.config({ toml: '[eval]\nmax_golden_age_days = 7\n', overrides: { model: 'none' } });
    const facade = openKnowledgeBase(config, { now: () => clock.now });
    try {
      await facade.stampGolden();
      clock.now = new Date(Date.parse('2026-03-01T00:00:00Z') + 8 * DAY_MS);
      await expect(facade.evaluate({ history: false })).rejects.toMatchObject({ code: 'GOLDEN_STALE' });
    } finally {
      await facade.close();
    }
  });

  it('warns when the corpus moved more than golden_drift_warn since the set was made, not below', async () => {
    const temp = makeKb();
    const clock = { now: new Date('2026-03-01T00:00:00Z') };
    await index(temp, clock);
    const facade = facadeAt(temp, clock);
    try {
      await facade.stampGolden();
      // One more section: chunks 24 -> 25 is 4.2%, below 5%, and the documents did not move.
      temp.write(
        'notes/ant.md',
        `${noteText('ant')}\n## A third section\n\nA new section with enough words to stand alone as its own chunk.\n`,
      );
      await facade.index();
      const small = await facade.evaluate({ history: false });
      expect(small.freshness!.drift).toMatchObject({
        drifted: false,
        atCreation: { documents: 12, chunks: 24 },
        now: { documents: 12, chunks: 25 },
      });
      temp.write('extra/zebra.md', noteText('zebra'));
      await facade.index();
      const moved = await facade.evaluate({ history: false });
      expect(moved.freshness!.drift).toMatchObject({
        drifted: true,
        now: { documents: 13, chunks: 27 },
        warnAbove: 0.05,
      });
      expect(moved.freshness!.drift!.change).toBeCloseTo(3 / 24, 9);
    } finally {
      await facade.close();
    }
  });

  it('refuses a sidecar it cannot read strictly', async () => {
    const temp = makeKb();
    const clock = { now: new Date('2026-03-01T00:00:00Z') };
    await index(temp, clock);
    temp.write(
      '.groove-eval.meta.yml',
      'created: 2026-03-01T00:00:00Z\ncorpus_documents: 12\ncorpus_chunks: 24\n',
    );
    const facade = facadeAt(temp, clock);
    try {
      await expect(facade.evaluate({ history: false })).rejects.toMatchObject({
        code: 'GOLDEN_INVALID',
        message: expect.stringContaining('missing field `source`'),
      });
      temp.write(
        '.groove-eval.meta.yml',
        'created: 2026-03-01T00:00:00Z\ncorpus_documents: 12\ncorpus_chunks: 24\nsource: stamp\nmax_age: 90\n',
      );
      await expect(facade.evaluate({ history: false })).rejects.toMatchObject({
        message: expect.stringContaining('unknown field `max_age`'),
      });
    } finally {
      await facade.close();
    }
  });
});

describe('paired comparison', () => {
  async function baselineThenDistract(temp: TempKb, distracted: string[]) {
    const clock = { now: new Date('2026-03-01T00:00:00Z') };
    await index(temp, clock);
    const facade = facadeAt(temp, clock);
    try {
      const { report: first } = await facade.runEval({});
      for (const name of distracted) temp.write(`distract/${name}.md`, distractor(name));
      await facade.index();
      clock.now = new Date('2026-03-02T00:00:00Z');
      const second = await facade.evaluate({ failOnRegression: true, failOnSignificantRegression: true });
      return { first, second };
    } finally {
      await facade.close();
    }
  }

  it('one query of twelve falling: the mean gate fires, the interval says indistinguishable', async () => {
    const temp = makeKb();
    const { second } = await baselineThenDistract(temp, ['ant']);
    expect(second.comparison).toBe('compatible');
    expect(second.paired!.sharedQueries).toBe(12);
    const recall1 = second.paired!.metrics.find((m) => m.metric === 'recall@1')!;
    expect(recall1.meanDiff).toBeCloseTo(-1 / 12, 9);
    expect(recall1.ciLow).toBeLessThan(0);
    expect(recall1.ciHigh).toBeGreaterThan(0);
    expect(recall1.verdict).toBe('indistinguishable');
    expect(recall1.minDetectableEffect).toBeGreaterThan(1 / 12);
    expect(second.gate.state).toBe('regressed');
    expect(second.significantGate).toEqual({ state: 'passed', against: '2026-03-01T00:00:00+00:00' });
  });

  it('ten of twelve falling is a significant regression; the gate names the interval', async () => {
    const temp = makeKb();
    const { second } = await baselineThenDistract(temp, NAMES.slice(0, 10));
    const recall1 = second.paired!.metrics.find((m) => m.metric === 'recall@1')!;
    expect(recall1.verdict).toBe('regressed');
    expect(recall1.ciHigh).toBeLessThan(0);
    expect(second.significantGate.state).toBe('regressed');
    if (second.significantGate.state === 'regressed') {
      expect(second.significantGate.regressions.map((r) => r.metric)).toContain('recall@1');
    }
  });

  it('--compare picks a baseline by timestamp prefix or from a JSON file, and explains a miss', async () => {
    const temp = makeKb();
    const clock = { now: new Date('2026-03-01T00:00:00Z') };
    await index(temp, clock);
    const facade = facadeAt(temp, clock);
    try {
      const { report: first } = await facade.runEval({});
      for (const name of NAMES.slice(0, 10)) temp.write(`distract/${name}.md`, distractor(name));
      await facade.index();
      clock.now = new Date('2026-03-02T00:00:00Z');
      await facade.runEval({});
      clock.now = new Date('2026-03-03T00:00:00Z');
      // The newest run is already distracted: against it nothing moved; against the first, recall fell.
      const plain = await facade.evaluate();
      expect(plain.previous!.timestamp).toBe('2026-03-02T00:00:00+00:00');
      const chosen = await facade.evaluate({ compare: { id: '2026-03-01', path: '/nonexistent' } });
      expect(chosen.comparedWith).toBe('chosen');
      expect(chosen.previous!.timestamp).toBe('2026-03-01T00:00:00+00:00');
      expect(chosen.paired!.metrics.find((m) => m.metric === 'recall@1')!.verdict).toBe('regressed');

      const file = path.join(temp.root, 'baseline.json');
      fs.writeFileSync(
        file,
        JSON.stringify({ runs: [JSON.parse(fs.readFileSync(first.history!.path, 'utf8')).runs[1]] }),
      );
      const fromFile = await facade.evaluate({
        compare: { id: 'baseline.json', path: file },
        history: false,
      });
      expect(fromFile.previous!.timestamp).toBe('2026-03-01T00:00:00+00:00');
      expect(fromFile.paired).not.toBeNull();

      await expect(
        facade.evaluate({ compare: { id: '2025', path: path.join(temp.root, 'nope.json') } }),
      ).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('is neither a run of the eval history nor a readable file'),
      });
      await expect(facade.evaluate({ compare: { id: '2026-03', path: '/x' } })).rejects.toMatchObject({
        message: expect.stringContaining('matches 2 runs'),
      });
    } finally {
      await facade.close();
    }
  });
});

describe('--rows', () => {
  it('measures every row from one snapshot, gates only the first, and records the decision row newest', async () => {
    const temp = makeKb();
    const clock = { now: new Date('2026-03-01T00:00:00Z') };
    await index(temp, clock);
    const facade = facadeAt(temp, clock);
    try {
      const { report, saved } = await facade.runEval({
        rows: ['core', 'mmr', 'parent'],
        failOnRegression: true,
      });
      expect([report.run.row, ...report.otherRows.map((r) => r.run.row)]).toEqual(['core', 'mmr', 'parent']);
      expect(report.run.fingerprint.mmr).toBeUndefined();
      expect(report.otherRows[0]!.run.fingerprint.mmr).toBeDefined();
      expect(report.otherRows[1]!.run.fingerprint.parentRetriever).toBeDefined();
      expect(
        new Set([report.run.corpus, ...report.otherRows.map((r) => r.run.corpus)].map((c) => c!.digest)).size,
      ).toBe(1);
      // Each reference row is paired with the decision row over the same queries; the decision row is not.
      expect(report.versusDecision).toBeNull();
      expect(report.otherRows.map((r) => r.versusDecision?.sharedQueries)).toEqual([12, 12]);
      expect(report.otherRows[0]!.versusDecision!.against).toBe(report.run.timestamp);
      expect(report.gate.state).toBe('no-op');
      expect(report.otherRows.map((r) => r.gate.state)).toEqual(['off', 'off']);
      const written = saved!;
      expect(written.keptRuns).toBe(3);
      const stored = JSON.parse(fs.readFileSync(written.path, 'utf8')) as { runs: { row: string }[] };
      expect(stored.runs.map((r) => r.row)).toEqual(['core', 'mmr', 'parent']);

      clock.now = new Date('2026-03-02T00:00:00Z');
      const again = await facade.evaluate({ rows: ['core', 'mmr', 'parent'], failOnRegression: true });
      // Each row finds its own previous run, not merely the newest one.
      expect(again.comparison).toBe('compatible');
      expect(again.otherRows.map((r) => r.comparison)).toEqual(['compatible', 'compatible']);
      expect(again.gate.state).toBe('passed');
      // A plain run compares with the newest history run: the last decision row.
      expect((await facade.evaluate()).comparison).toBe('compatible');
    } finally {
      await facade.close();
    }
  });

  it('refuses an unknown stage, a duplicate row, and a reranking row without a reranker', async () => {
    const temp = makeKb();
    const clock = { now: new Date('2026-03-01T00:00:00Z') };
    await index(temp, clock);
    const facade = facadeAt(temp, clock);
    try {
      for (const [rows, message] of [
        [['core', 'fast'], 'unknown row stage "fast"'],
        [['core', 'mmr', 'mmr'], 'row "mmr" is listed twice'],
        [['rerank'], 'row "rerank" reranks, but no reranker is configured'],
      ] as const) {
        await expect(facade.evaluate({ history: false, rows: [...rows] })).rejects.toMatchObject({
          code: 'INVALID_ARGUMENT',
          message: expect.stringContaining(message),
        });
      }
    } finally {
      await facade.close();
    }
  });
});
