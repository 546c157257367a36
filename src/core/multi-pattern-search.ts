// Finds which of many fixed strings occur in a text in one left-to-right pass (an Aho–Corasick automaton), so
// scanning a corpus for hundreds of golden queries costs one walk per text instead of one search per query.

export interface MultiPatternMatcher {
  /** Indexes (into the patterns given) of every pattern occurring in `text` at least once. */
  findPatterns(text: string): Set<number>;
}

/** Build a matcher over UTF-16 code units; empty patterns never match. */
export function buildMultiPatternMatcher(patterns: readonly string[]): MultiPatternMatcher {
  // Transitions: the root (visited at most text positions) as a dense table, other states as small maps keyed
  // by code unit — small-integer keys keep every probe on V8's fast path.
  const rootNext = new Int32Array(65_536).fill(-1);
  const next: (Map<number, number> | null)[] = [null];
  const ownPattern: number[][] = [[]];
  const fail: number[] = [0];
  const step = (state: number, unit: number): number =>
    state === 0 ? rootNext[unit]! : (next[state]?.get(unit) ?? -1);

  patterns.forEach((pattern, index) => {
    if (pattern.length === 0) return;
    let state = 0;
    for (let i = 0; i < pattern.length; i++) {
      const unit = pattern.charCodeAt(i);
      let target = step(state, unit);
      if (target === -1) {
        target = ownPattern.length;
        ownPattern.push([]);
        fail.push(0);
        next.push(null);
        if (state === 0) rootNext[unit] = target;
        else {
          let map = next[state];
          if (!map) {
            map = new Map();
            next[state] = map;
          }
          map.set(unit, target);
        }
      }
      state = target;
    }
    ownPattern[state]!.push(index);
  });

  // Breadth-first over the trie: each state's failure link is the longest proper suffix that is also a prefix;
  // dictLink is the nearest state down that chain which ends a pattern (-1: none).
  const dictLink = new Array<number>(ownPattern.length).fill(-1);
  const queue: number[] = [];
  for (let unit = 0; unit < 65_536; unit++) if (rootNext[unit] !== -1) queue.push(rootNext[unit]!);
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    for (const [unit, child] of next[state] ?? []) {
      let f = fail[state]!;
      let target = step(f, unit);
      while (target === -1 && f !== 0) {
        f = fail[f]!;
        target = step(f, unit);
      }
      fail[child] = target === -1 || target === child ? 0 : target;
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
        let target = step(state, unit);
        while (target === -1 && state !== 0) {
          state = fail[state]!;
          target = step(state, unit);
        }
        state = target === -1 ? 0 : target;
        for (let s = ownPattern[state]!.length > 0 ? state : dictLink[state]!; s > 0; s = dictLink[s]!) {
          for (const index of ownPattern[s]!) found.add(index);
        }
      }
      return found;
    },
  };
}
