// Finds which of many fixed strings occur in a text in one left-to-right pass (an Aho–Corasick automaton), so
// scanning a corpus for hundreds of golden queries costs one walk per text instead of one search per query.

export interface MultiPatternMatcher {
  /** Indexes (into the patterns given) of every pattern occurring in `text` at least once. */
  findPatterns(text: string): Set<number>;
}

/** Build a matcher over UTF-16 code units; empty patterns never match. */
export function buildMultiPatternMatcher(patterns: readonly string[]): MultiPatternMatcher {
  // Transitions of all states in one map keyed by state * 2^16 + code unit: compact and fast to probe.
  const next = new Map<number, number>();
  const ownPattern: number[][] = [[]];
  const fail: number[] = [0];
  const key = (state: number, unit: number) => state * 65_536 + unit;

  patterns.forEach((pattern, index) => {
    if (pattern.length === 0) return;
    let state = 0;
    for (let i = 0; i < pattern.length; i++) {
      const k = key(state, pattern.charCodeAt(i));
      let target = next.get(k);
      if (target === undefined) {
        target = ownPattern.length;
        ownPattern.push([]);
        fail.push(0);
        next.set(k, target);
      }
      state = target;
    }
    ownPattern[state]!.push(index);
  });

  // Children of each state, for the breadth-first pass that sets failure links.
  const children: [number, number][][] = ownPattern.map(() => []);
  for (const [k, target] of next) children[Math.floor(k / 65_536)]!.push([k % 65_536, target]);
  // dictLink: the nearest state down the failure chain that ends a pattern (-1: none).
  const dictLink = new Array<number>(ownPattern.length).fill(-1);
  const queue: number[] = [];
  for (const [, child] of children[0]!) queue.push(child);
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    for (const [unit, child] of children[state]!) {
      let f = fail[state]!;
      while (f !== 0 && !next.has(key(f, unit))) f = fail[f]!;
      const target = next.get(key(f, unit));
      fail[child] = target !== undefined && target !== child ? target : 0;
      const via = fail[child]!;
      dictLink[child] = ownPattern[via]!.length > 0 ? via : dictLink[via]!;
      queue.push(child);
    }
  }

  return {
    findPatterns(text: string): Set<number> {
      const found = new Set<number>();
      let state = 0;
      for (let i = 0; i < text.length; i++) {
        const unit = text.charCodeAt(i);
        let target = next.get(key(state, unit));
        while (target === undefined && state !== 0) {
          state = fail[state]!;
          target = next.get(key(state, unit));
        }
        state = target ?? 0;
        for (let s = ownPattern[state]!.length > 0 ? state : dictLink[state]!; s > 0; s = dictLink[s]!) {
          for (const index of ownPattern[s]!) found.add(index);
        }
      }
      return found;
    },
  };
}
