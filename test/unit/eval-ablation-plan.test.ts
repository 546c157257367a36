// Which stages `groove eval --ablate` switches off: each one the decision pipeline runs, the rest listed as not
// applicable with why; an ablated pipeline differs from full in that one stage only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planAblation } from '../../src/app/eval/eval-ablation.js';
import { effectivePipeline, resolveEvalRows } from '../../src/app/eval/eval-rows.js';
import { type ResolvedConfig, resolveConfig } from '../../src/config/resolve-config.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

function configFrom(toml: string): ResolvedConfig {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-ablate-'));
  roots.push(root);
  fs.mkdirSync(path.join(root, '.git'));
  fs.writeFileSync(path.join(root, 'groove.toml'), toml);
  return resolveConfig({ cwd: root, env: {} });
}

const hybrid = { lexicalOnly: false, down: [], decisionRow: null };

describe('planAblation', () => {
  it('a hybrid pipeline with a reranker, MMR and the parent retriever: each switched off alone', () => {
    const config = configFrom(
      'reranker = "bge-reranker-base"\n[search.mmr]\nenabled = true\n[search.parent_retriever]\nenabled = true\n',
    );
    const full = effectivePipeline({}, config);
    const plan = planAblation(full, { ...hybrid, config });
    expect(plan.map((e) => [e.name, e.pipeline !== null])).toEqual([
      ['-lexical', true],
      ['-vector', true],
      ['-reranker', true],
      ['-fold', true],
      ['-mmr', true],
      ['-parent', true],
      ['-boost', false],
      ['-graph', false],
    ]);
    const pipelines = plan.map((e) => e.pipeline);
    expect(pipelines.slice(0, 6)).toEqual([
      { ...full, skipLeg: 'lexical' },
      { ...full, skipLeg: 'vector' },
      { ...full, reranker: null },
      { ...full, fold: 'none' },
      { ...full, mmr: null },
      { ...full, parentRetriever: null },
    ]);
    expect(plan[6]!.reason).toBe('[search.boost] is off');
  });

  it('folding is switched off (-fold) when the run folds, and not applicable when it does not', () => {
    const config = configFrom('[search]\nfold = "none"\n');
    const unfolded = planAblation(effectivePipeline({}, config), { ...hybrid, config });
    expect(unfolded.find((e) => e.stage === 'fold')!.reason).toBe(
      'hits are not folded in the configured pipeline (--fold section|document or [search] fold)',
    );
    const full = effectivePipeline({ fold: 'document' }, config);
    const folded = planAblation(full, { ...hybrid, config }).find((e) => e.stage === 'fold')!;
    expect(folded.pipeline).toEqual({ ...full, fold: 'none' });
  });

  it('a leg the probe found down (measured with --allow-degraded) has nothing left to switch off', () => {
    const config = configFrom('');
    const plan = planAblation(effectivePipeline({}, config), {
      ...hybrid,
      down: [{ leg: 'vector', reason: 'failed: model missing' }],
      config,
    });
    expect(plan[1]!.reason).toBe(
      'the vector leg is down in this run (--allow-degraded): the full pipeline already runs without it',
    );
    // Nor the lexical leg: with the vector leg down it is the only one answering.
    expect(plan[0]!.reason).toBe(
      'the vector leg is down in this run (--allow-degraded): without the lexical leg nothing is retrieved',
    );
    expect(plan[0]!.pipeline).toBeNull();
    const healthy = planAblation(effectivePipeline({}, config), { ...hybrid, config });
    expect(healthy.slice(0, 2).map((e) => e.reason)).toEqual([null, null]);
  });

  it('a graph hop over written links alone can decide (--rows graph), so -graph switches it off', () => {
    const config = configFrom('[search.graph]\nenabled = true\nco_helpful = false\n');
    const [decision] = resolveEvalRows(['graph'], {}, config);
    const plan = planAblation(decision!.pipeline, { ...hybrid, decisionRow: 'graph', config });
    const graph = plan.find((e) => e.stage === 'graph')!;
    expect(decision!.pipeline.graph).not.toBeNull();
    expect(graph.pipeline).toEqual({ ...decision!.pipeline, graph: null });
    expect(plan.find((e) => e.stage === 'boost')!.reason).toBe('[search.boost] is off');
    expect(plan.find((e) => e.stage === 'reranker')!.reason).toContain('no reranker configured');
  });

  it('a configured reranker the decision row does not use is named as such', () => {
    const config = configFrom('reranker = "bge-reranker-base"\n');
    const [decision] = resolveEvalRows(['core'], {}, config);
    const plan = planAblation(decision!.pipeline, { ...hybrid, decisionRow: 'core', config });
    expect(plan.find((e) => e.stage === 'reranker')!.reason).toBe('the decision row "core" does not rerank');
  });
});
