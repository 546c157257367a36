// record_feedback as a use case: an agent says, for one task, which served items helped, were noise or were
// wrong. Those marks are relevance judgments that already exist; stored durably they become the golden set
// (see golden-build.ts). Validation here is about meaning; the MCP schema already checked the shape.

import { GrooveError } from '../../errors.js';
import { compileFtsQuery } from '../../rank/fts-query.js';
import type { JudgmentBudget } from '../../rank/judgment-budget.js';
import type { FeedbackServeInput, StoredFeedbackItem } from '../../store/feedback-store.js';
import type { FeedbackVerdict } from '../../types.js';

export interface FeedbackItemInput {
  path: string;
  heading?: string | null;
  verdict: FeedbackVerdict;
  /** Injected into every brief without ranking (rules); excluded from the golden set. */
  alwaysServed?: boolean;
}

export interface FeedbackInput {
  /** The agent's id for the task; the same task recorded again later counts once in a golden set. */
  taskId: string;
  /** The query the items were served for (becomes the golden query). */
  query: string;
  items: FeedbackItemInput[];
}

export interface FeedbackReceipt {
  serveId: number;
  taskId: string;
  items: number;
  helped: number;
  /**
   * Judged entries not indexed now — `path`, or `path (heading "…")` when only the heading is missing: a typo or
   * a retired document. They are kept, but no golden set can use them.
   */
  notIndexed: string[];
}

export interface FeedbackPorts {
  insert(serve: FeedbackServeInput): number;
  /** Judged items the index holds now, and how many it may hold ([feedback] max_judgments). */
  storedJudgments(): number;
  maxJudgments: number;
  /** The recording client's budget ([feedback] judgments_per_minute), spent once the serve is stored. */
  budget: JudgmentBudget | null;
  isIndexed(path: string, heading: string | null): boolean;
  now(): Date;
}

export const MAX_FEEDBACK_ITEMS = 500;
const MAX_TASK_ID_CHARS = 256;
const MAX_QUERY_BYTES = 1024;
const MAX_PATH_BYTES = 4096;
const MAX_HEADING_BYTES = 4096;

/** Validate, store and acknowledge one serve's judgments. */
export function recordFeedback(input: FeedbackInput, ports: FeedbackPorts): FeedbackReceipt {
  const taskId = input.taskId.trim();
  if (taskId === '' || [...taskId].length > MAX_TASK_ID_CHARS) {
    throw invalid(
      `task_id must be 1 to ${MAX_TASK_ID_CHARS} characters, got ${JSON.stringify(input.taskId.slice(0, 40))}`,
    );
  }
  const query = input.query.trim();
  if (query === '' || Buffer.byteLength(query) > MAX_QUERY_BYTES) {
    throw invalid(`query must be 1 to ${MAX_QUERY_BYTES} bytes (the search limit)`);
  }
  const compiled = compileFtsQuery(query);
  if (compiled.kind === 'exclusion-only') throw invalid(`query "${query}": ${compiled.message}`);
  if (input.items.length === 0 || input.items.length > MAX_FEEDBACK_ITEMS) {
    throw invalid(`items must list 1 to ${MAX_FEEDBACK_ITEMS} served items, got ${input.items.length}`);
  }
  const items: StoredFeedbackItem[] = input.items.map((item, i) => {
    const path = item.path.trim();
    if (path === '') throw invalid(`items[${i}].path must not be empty`);
    const pathBytes = Buffer.byteLength(path);
    if (pathBytes > MAX_PATH_BYTES)
      throw invalid(
        `items[${i}].path is ${pathBytes} bytes; a knowledge-base path is at most ${MAX_PATH_BYTES}`,
      );
    if (
      path.startsWith('/') ||
      /^[a-zA-Z]:/.test(path) ||
      path.includes('\\') ||
      path.split('/').includes('..')
    ) {
      throw invalid(
        `items[${i}].path ${JSON.stringify(path.slice(0, 80))} is not a knowledge-base path; pass the \`path\` a search result gave (relative, with /)`,
      );
    }
    const heading = item.heading?.trim() ? item.heading.trim() : null;
    if (heading !== null && Buffer.byteLength(heading) > MAX_HEADING_BYTES)
      throw invalid(
        `items[${i}].heading is over ${MAX_HEADING_BYTES} bytes; pass the \`heading\` a search result gave`,
      );
    return { path, heading, verdict: item.verdict, alwaysServed: item.alwaysServed === true };
  });
  assertWithinRate(input.items.length, ports.budget);
  const stored = ports.storedJudgments();
  if (stored + items.length > ports.maxJudgments) {
    throw new GrooveError(
      'FEEDBACK_FULL',
      `record_feedback: the index holds ${stored} judged items and keeps at most ${ports.maxJudgments}; these ${items.length} were not stored`,
      {
        hint: 'raise [feedback] max_judgments in groove.toml, or rebuild the index without its judgments',
      },
    );
  }
  const serveId = ports.insert({ recordedAt: ports.now().toISOString(), taskId, query, items });
  ports.budget?.spend(items.length);
  const notIndexed = [
    ...new Set(
      items
        .filter((item) => !ports.isIndexed(item.path, item.heading))
        .map((item) => (item.heading === null ? item.path : `${item.path} (heading "${item.heading}")`)),
    ),
  ];
  return {
    serveId,
    taskId,
    items: items.length,
    helped: items.filter((item) => item.verdict === 'helped').length,
    notIndexed,
  };
}

/**
 * Refuse a record the client's budget cannot take now (FEEDBACK_RATE_LIMITED), before anything is opened or
 * stored: a client flooding judgments costs the index nothing.
 */
export function assertWithinRate(items: number, budget: JudgmentBudget | null): void {
  if (!budget) return;
  if (items > budget.capacity) {
    throw new GrooveError(
      'FEEDBACK_RATE_LIMITED',
      `record_feedback: ${items} judged items in one call; this server takes at most ${budget.capacity} a minute from one client`,
      { hint: 'send fewer items per call, or raise [feedback] judgments_per_minute in groove.toml' },
    );
  }
  const wait = budget.waitFor(items);
  if (wait !== null) {
    throw new GrooveError(
      'FEEDBACK_RATE_LIMITED',
      `record_feedback: this client recorded its ${budget.capacity} judged items a minute; these ${items} were not stored`,
      { hint: `try again in ${wait} s, or raise [feedback] judgments_per_minute in groove.toml` },
    );
  }
}

function invalid(message: string): GrooveError {
  return new GrooveError('INVALID_ARGUMENT', `record_feedback: ${message}`, {
    hint: 'send {task_id, query, items:[{path, heading?, verdict: helped|noise|wrong, always_served?}]}',
  });
}
