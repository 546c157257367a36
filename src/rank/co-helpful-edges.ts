// Co-helpfulness edges learned from judgments: documents judged `helped` in the same task are related. Pure: a
// function of the counted judgments (counted-judgments.ts), so eval can leave a query's own judgments out.
//
// For each task t: D_t = the distinct documents judged helped in any of its serves (the first
// MAX_HELPED_PER_TASK in recording order), w_t = the largest weight among those judgments (its newest).
//
//   C(a, b)     = Σ w_t over the tasks with both a and b in D_t
//   edge weight = C / (C + 0.1)      one fresh shared task: 0.91; a task one half-life old: 0.83; two: 0.95
//
// Why so close to 1: fused scores are RRF scores, ~1/(rrf_k + rank), so multiplying one by 0.5 moves a document
// about rrf_k ranks down; at 0.91 a document pulled in from the top hit lands about six ranks below it.
//
// Noise and wrong verdicts add nothing here (they lower a document through the boost instead).
import type { CountedJudgment } from './counted-judgments.js';
import type { GraphEdge } from './graph-hop.js';

/** Helped documents per task that pair with each other; a task judging more pairs only its first ones. */
export const MAX_HELPED_PER_TASK = 32;

/** The smoothing constant of an edge's weight C / (C + CO_HELPFUL_PRIOR). */
export const CO_HELPFUL_PRIOR = 0.1;

export interface CoHelpfulEdges {
  /** How many document pairs have an edge. */
  readonly edges: number;
  /** Every co-helpful edge touching any of `paths`. */
  edgesFor(paths: readonly string[]): GraphEdge[];
}

export function buildCoHelpfulEdges(judgments: readonly CountedJudgment[]): CoHelpfulEdges {
  const tasks = new Map<string, { documents: string[]; weight: number }>();
  for (const j of judgments) {
    if (j.verdict !== 'helped') continue;
    const task = tasks.get(j.taskId) ?? { documents: [], weight: 0 };
    if (!task.documents.includes(j.path) && task.documents.length < MAX_HELPED_PER_TASK) {
      task.documents.push(j.path);
    }
    task.weight = Math.max(task.weight, j.weight);
    tasks.set(j.taskId, task);
  }
  const together = new Map<string, Map<string, number>>();
  const add = (a: string, b: string, weight: number) => {
    const row = together.get(a) ?? new Map<string, number>();
    row.set(b, (row.get(b) ?? 0) + weight);
    together.set(a, row);
  };
  let edges = 0;
  for (const { documents, weight } of tasks.values()) {
    for (let i = 0; i < documents.length; i++) {
      for (let k = i + 1; k < documents.length; k++) {
        const [a, b] = [documents[i]!, documents[k]!];
        if (!together.get(a)?.has(b)) edges++;
        add(a, b, weight);
        add(b, a, weight);
      }
    }
  }
  return {
    edges,
    edgesFor(paths) {
      const out: GraphEdge[] = [];
      const seen = new Set<string>();
      for (const source of paths) {
        if (seen.has(source)) continue;
        seen.add(source);
        for (const [target, count] of together.get(source) ?? []) {
          out.push({ source, target, kind: 'co_helpful', weight: count / (count + CO_HELPFUL_PRIOR) });
        }
      }
      return out;
    },
  };
}
