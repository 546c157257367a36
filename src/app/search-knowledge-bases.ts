// Search several knowledge bases as one corpus (search/combined-search.ts): each KB is read through its own
// facade and search session, all of them held open for the one search, and every hit names its KB.
import { GrooveError } from '../errors.js';
import type { KnowledgeBase } from './knowledge-base.js';
import {
  type CombinedResponse,
  checkSearchRequest,
  type SearchOptions,
  type SearchPart,
  type SessionView,
  searchParts,
} from './search/index.js';

/** A knowledge base to search, and the label its hits carry as `kb` (default: its root path). */
export interface SearchTarget {
  kb: KnowledgeBase;
  name?: string;
}

function targetOf(entry: KnowledgeBase | SearchTarget): { kb: KnowledgeBase; label: string } {
  const target = 'kb' in entry && typeof entry.kb === 'object' ? entry : { kb: entry as KnowledgeBase };
  return { kb: target.kb, label: target.name ?? target.kb.kbPath };
}

/** Refuse a search that names no KB, or one index (or one label) twice: its rows would count twice. */
function checkTargets(targets: readonly { kb: KnowledgeBase; label: string }[]): void {
  if (targets.length === 0) {
    throw new GrooveError(
      'INVALID_ARGUMENT',
      'a search across knowledge bases needs at least one knowledge base',
    );
  }
  const seen = new Map<string, string>();
  for (const { kb, label } of targets) {
    for (const key of [`index ${kb.dbPath}`, `label ${label}`]) {
      if (seen.has(key)) {
        throw new GrooveError(
          'INVALID_ARGUMENT',
          `the knowledge base "${label}" is named twice in one search`,
          {
            hint: 'name each knowledge base once',
          },
        );
      }
      seen.set(key, label);
    }
  }
}

/** Hold every KB's search view open at once, in order, then run `work` on them. */
function withViews<T>(
  kbs: readonly KnowledgeBase[],
  work: (views: SessionView[]) => Promise<T>,
  held: SessionView[] = [],
): Promise<T> {
  const next = kbs[held.length];
  if (!next) return work(held);
  return next.withSearchView((view) => withViews(kbs, work, [...held, view]));
}

/**
 * Search several knowledge bases as if one knowledge base held all their files: the same ranking (up to ties)
 * when they share a model and settings; each hit carries `kb`. The first KB's `[search]` settings and reranker
 * apply to the whole search. One KB is searched exactly as `kb.search` searches it.
 */
export async function searchKnowledgeBases(
  entries: readonly (KnowledgeBase | SearchTarget)[],
  request: unknown,
  options: SearchOptions = {},
): Promise<CombinedResponse> {
  const targets = entries.map(targetOf);
  checkTargets(targets);
  const checked = checkSearchRequest(request);
  return withViews(
    targets.map((t) => t.kb),
    (views) => {
      const parts: SearchPart[] = views.map((view, i) => ({ kb: targets[i]!.label, view }));
      return searchParts(parts, checked, options);
    },
  );
}
