// The knowledge bases one server serves, by name. A KB whose folder was missing or unreadable at start is served
// as "missing": it is listed with its problem, its index is never opened (so never touched), and a search that
// names it is refused while a search over every KB skips it with a note. Which KB a path-addressed call means:
// the one named with `kb`, else the only served KB holding that path (several holding it → name one).
import { GrooveError } from '../../errors.js';
import type { KnowledgeBase } from '../knowledge-base.js';
import type { CombinedResponse } from '../search/index.js';
import { type SearchTarget, searchKnowledgeBases } from '../search-knowledge-bases.js';
import type { IndexRunner } from './index-runner.js';

export interface ServingKb {
  name: string;
  kb: KnowledgeBase;
  runner: IndexRunner;
}

export interface MissingKb {
  name: string;
  /** The KB's folder as registered. */
  kbPath: string;
  /** Why it is not served (its folder is gone or cannot be listed). */
  problem: string;
}

export type ServedKb = ({ state: 'serving' } & ServingKb) | ({ state: 'missing' | 'removed' } & MissingKb);

/** Why a KB unregistered while served is served no more. */
export const REMOVED_PROBLEM = 'it was removed from the KB registry (groove kb remove)';

/** `kb` as a tool takes it: one name, a list of names, or nothing (every served KB). */
export type KbSelector = string | readonly string[] | undefined;

export interface KbSummary {
  name: string;
  kb_path: string;
  /** ok (serving), "folder missing" (listed, never opened, its index kept), or "removed" (unregistered, closed). */
  health: 'ok' | 'folder missing' | 'removed';
  problem: string | null;
  documents: number | null;
  chunks: number | null;
  model: string | null;
  last_indexed_at: string | null;
}

export class ServedKbs {
  private current: ServedKb[];

  constructor(entries: readonly ServedKb[]) {
    this.current = [...entries];
  }

  get entries(): readonly ServedKb[] {
    return this.current;
  }

  /**
   * Stop serving a KB that was removed from the registry: from now on it is listed as "removed", a search naming
   * it is refused and a search of every KB skips it. Returns the serving entry it was (for the caller to close),
   * or null when it was not serving.
   */
  markRemoved(name: string): ServingKb | null {
    const index = this.current.findIndex((entry) => entry.name === name);
    const entry = this.current[index];
    if (entry === undefined || entry.state === 'removed') return null;
    const kbPath = entry.state === 'serving' ? entry.kb.kbPath : entry.kbPath;
    this.current[index] = { state: 'removed', name, kbPath, problem: REMOVED_PROBLEM };
    return entry.state === 'serving' ? entry : null;
  }

  names(): string[] {
    return this.entries.map((entry) => entry.name);
  }

  serving(): ServingKb[] {
    return this.entries.filter(
      (entry): entry is { state: 'serving' } & ServingKb => entry.state === 'serving',
    );
  }

  /** The KBs a selector names (each once, in serving order); an unknown name is KB_UNKNOWN naming the served. */
  select(selector: KbSelector): ServedKb[] {
    if (selector === undefined) return [...this.entries];
    const wanted = new Set(typeof selector === 'string' ? [selector] : selector);
    for (const name of wanted) {
      if (!this.entries.some((entry) => entry.name === name)) {
        throw new GrooveError('KB_UNKNOWN', `this server does not serve a KB named "${name}"`, {
          hint: `name one of the served KBs: ${this.names().join(', ')}`,
        });
      }
    }
    return this.entries.filter((entry) => wanted.has(entry.name));
  }

  /** The one serving KB a name gives; a missing one is refused with its problem. */
  one(name: string): ServingKb {
    const [entry] = this.select(name);
    if (entry?.state !== 'serving') throw missingError(entry as MissingKb);
    return entry;
  }

  /**
   * Search the KBs a selector names as one corpus; every hit carries `kb`. Named missing KBs are refused; over
   * every KB the missing ones are skipped, each with a note in `skipped`.
   */
  async search(
    selector: KbSelector,
    request: unknown,
  ): Promise<{ response: CombinedResponse; skipped: MissingKb[] }> {
    const chosen = this.select(selector);
    const missing = chosen.filter(
      (entry): entry is { state: 'missing' | 'removed' } & MissingKb => entry.state !== 'serving',
    );
    if (selector !== undefined && missing.length > 0) throw missingError(missing[0]!);
    const targets: SearchTarget[] = chosen.flatMap((entry) =>
      entry.state === 'serving' ? [{ kb: entry.kb, name: entry.name }] : [],
    );
    if (targets.length === 0) throw missingError(missing[0]!);
    return { response: await searchKnowledgeBases(targets, request), skipped: missing };
  }

  /**
   * The serving KB a path-addressed call means: the one named, else the only one for which `holds` is true.
   * None holding it → the first KB's own answer is kept by the caller; several → INVALID_ARGUMENT naming them.
   */
  async resolve(name: string | undefined, holds: (kb: ServingKb) => Promise<boolean>): Promise<ServingKb[]> {
    if (name !== undefined) return [this.one(name)];
    const serving = this.serving();
    if (serving.length <= 1) return serving;
    const holding: ServingKb[] = [];
    for (const entry of serving) if (await holds(entry)) holding.push(entry);
    if (holding.length > 1) {
      throw new GrooveError(
        'INVALID_ARGUMENT',
        `that path exists in more than one served KB (${holding.map((entry) => entry.name).join(', ')})`,
        { hint: 'pass kb with the name of the one you mean' },
      );
    }
    return holding;
  }

  /** Each served KB with its counts, model and health (`list_kbs`). */
  async summaries(): Promise<KbSummary[]> {
    const rows: KbSummary[] = [];
    for (const entry of this.entries) {
      if (entry.state !== 'serving') {
        rows.push({
          name: entry.name,
          kb_path: entry.kbPath,
          health: entry.state === 'missing' ? 'folder missing' : 'removed',
          problem: entry.problem,
          documents: null,
          chunks: null,
          model: null,
          last_indexed_at: null,
        });
        continue;
      }
      const status = await entry.kb.describe();
      rows.push({
        name: entry.name,
        kb_path: entry.kb.kbPath,
        health: 'ok',
        problem: null,
        documents: status.documents,
        chunks: status.chunks,
        model: status.model,
        last_indexed_at: status.lastIndexedAt,
      });
    }
    return rows;
  }
}

function missingError(entry: MissingKb & { state?: string }): GrooveError {
  const hint =
    entry.state === 'removed'
      ? 'search the other KBs; register it again with groove kb add and restart groove serve to serve it'
      : `its index is kept; restore its folder ${entry.kbPath} and restart groove serve, or search the other KBs`;
  return new GrooveError('KB_NOT_FOUND', `the KB "${entry.name}" is not being served: ${entry.problem}`, {
    hint,
  });
}
