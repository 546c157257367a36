// The tune use case on a real index with both legs (deterministic hash embedder): queries are embedded once,
// the default condition reproduces what `eval` measures through the search pipeline, and rrf_k is live.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KnowledgeBase, openKnowledgeBase } from '../../src/app/knowledge-base.js';
import type { TuneEvent } from '../../src/app/tune/tuner.js';
import { HashEmbedder } from '../support/hash-embedder.js';
import { createTempKb, type TempKb } from '../support/temp-kb.js';

const TERMS = [
  'alphion',
  'betraxil',
  'cyprelon',
  'dovantix',
  'elmquist',
  'farrowby',
  'gildenmar',
  'hexolite',
];
const FILLER = 'routine maintenance notes about storage shelves and weekly planning for the team';

let temp: TempKb;
let kb: KnowledgeBase;
let embedder: HashEmbedder;
let golden: string;

beforeAll(async () => {
  temp = createTempKb();
  TERMS.forEach((term, i) => {
    temp.write(`target-${i}.md`, `# Topic ${i}\n\n## About ${term}\n\n${FILLER} number ${i}.\n`);
    temp.write(`decoy-${i}.md`, `# Other ${i}\n\n## Section\n\n${term} ${term} ${term} ${FILLER}.\n`);
    temp.write(
      `plain-${i}.md`,
      `# Plain ${i}\n\n## Notes\n\n${FILLER} and ${TERMS[(i + 1) % TERMS.length]} once.\n`,
    );
  });
  golden = path.join(temp.root, 'golden.yml');
  fs.writeFileSync(
    golden,
    `queries:\n${TERMS.map((t, i) => `  - id: q${i}\n    query: "${t} notes"\n    expected:\n      - path: target-${i}.md\n`).join('')}`,
  );
  embedder = new HashEmbedder({ dimension: 64 });
  kb = openKnowledgeBase(temp.config(), { createEmbedder: async () => embedder });
  await kb.index();
});
afterAll(async () => {
  await kb?.close();
  temp?.cleanup();
});

describe('runTune through the facade', () => {
  it('embeds each golden query once, fuses both legs, and reports every condition', async () => {
    const before = embedder.embeddedTexts;
    const events: TuneEvent[] = [];
    const outcome = await kb.tune({ golden }, (event) => events.push(event));
    expect(embedder.embeddedTexts - before).toBe(TERMS.length);
    expect(outcome.kind).toBe('report');
    if (outcome.kind !== 'report') return;
    const { report } = outcome;
    expect(report.model).toBe(embedder.id);
    expect(report.effectiveQueryCount).toBe(TERMS.length);
    expect(report.diagnostics.every((d) => d.vecFtsOverlap > 0)).toBe(true);
    expect(report.grid.rrfKSweep.map((s) => s.condition.rrfK)).toEqual([5, 10, 20, 30, 60, 100]);
    // With two legs, rrf_k reorders the fused list: the sweep is not flat.
    expect(new Set(report.grid.rrfKSweep.map((s) => s.ndcg.toFixed(9))).size).toBeGreaterThan(1);
    expect(events.map((e) => e.kind)).toEqual([
      'preflight-start',
      'preflight-done',
      'small-n',
      'sweep-start',
      'sweep-done',
    ]);
  });

  it('measures the default condition exactly as eval measures the search pipeline', async () => {
    const outcome = await kb.tune({ golden, kValues: [1, 5, 10] });
    if (outcome.kind !== 'report') throw new Error('expected a report');
    const evaluated = await kb.evaluate({ golden, kValues: [1, 5, 10], history: false });
    const aggregate = evaluated.run.aggregate;
    const baseline = outcome.report.secondary.baseline;
    for (const k of [1, 5, 10]) expect(baseline.recallAtK[k]).toBeCloseTo(aggregate.recallAtK[k]!, 12);
    expect(baseline.mrr).toBeCloseTo(aggregate.mrr, 12);
    expect(outcome.report.grid.defaultWeights.ndcg).toBeCloseTo(aggregate.ndcgAtK[5]!, 12);
  });

  it("judges quote entries on each candidate chunk's text", async () => {
    const quoted = (quote: (i: number) => string) => {
      const file = path.join(temp.root, `quoted-${quote(0).length}.yml`);
      fs.writeFileSync(
        file,
        `queries:\n${TERMS.map((t, i) => `  - id: q${i}\n    query: "${t} notes"\n    expected:\n      - { path: target-${i}.md, quote: "${quote(i)}" }\n`).join('')}`,
      );
      return file;
    };
    const baselineOf = async (file: string) => {
      const outcome = await kb.tune({ golden: file, kValues: [1, 5, 10] });
      if (outcome.kind !== 'report') throw new Error('expected a report');
      return outcome.report.secondary.baseline;
    };
    const plain = await baselineOf(golden);
    // The passage is in the target's one chunk: the same numbers as the document-level entry.
    expect(await baselineOf(quoted((i) => `the TEAM number ${i}.`))).toEqual(plain);
    // A passage no chunk returns never counts.
    const missing = await baselineOf(quoted((i) => `nowhere in target ${i}`));
    expect(missing.mrr).toBe(0);
    expect(plain.mrr).toBeGreaterThan(0);
  });

  it('refuses a limit above 10000 before reading the index', async () => {
    await expect(kb.tune({ golden, limit: 20_000 })).rejects.toThrow(/above 10000/);
  });
});

describe('runTune: the min_confidence threshold', () => {
  it('refuses without searching when the golden set has no negative queries', async () => {
    const before = embedder.embeddedTexts;
    const outcome = await kb.tune({ golden });
    expect(embedder.embeddedTexts - before).toBe(TERMS.length);
    if (outcome.kind !== 'report') throw new Error('expected a report');
    expect(outcome.report.threshold).toMatchObject({
      kind: 'refused',
      negatives: 0,
      answerable: TERMS.length,
    });
  });

  it('fits it on answerable and negative queries, sweeping fusion on the answerable ones only', async () => {
    const withNegatives = path.join(temp.root, 'golden-negatives.yml');
    const answerable = Array.from({ length: 12 }, (_, i) => {
      const term = TERMS[i % TERMS.length]!;
      return `  - id: a${i}\n    query: "${term} topic ${i % 3 === 0 ? 'about' : 'notes'}"\n    expected:\n      - path: target-${i % TERMS.length}.md\n`;
    });
    const negatives = Array.from(
      { length: 12 },
      (_, i) => `  - id: n${i}\n    query: "zorblat quintessence ${i} vexillology"\n    expected: []\n`,
    );
    fs.writeFileSync(withNegatives, `queries:\n${[...answerable, ...negatives].join('')}`);
    const outcome = await kb.tune({ golden: withNegatives });
    if (outcome.kind !== 'report') throw new Error('expected a report');
    expect(outcome.report.queryCount).toBe(12);
    const fit = outcome.report.threshold;
    expect(fit.kind).toBe('fitted');
    if (fit.kind !== 'fitted') return;
    // Negatives share no word with the notes (confidence 0); every answerable query's top hit holds its rare term.
    expect(fit.heldOut.recall.value).toBe(1);
    expect(fit.heldOut.falseAbstain.value).toBe(0);
    expect(fit.atDefault.auc).toBe(1);
  });
});
