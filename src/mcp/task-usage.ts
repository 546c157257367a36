// `task_id` on search and get_document: the documents a search served to a task, and which of them that task
// fetched afterwards (get_document, or a kb://doc/ resource read). A read without a task id (resources never
// carry one) counts for the task this client session last served that document to.
import * as z from 'zod';
import type { KnowledgeBase } from '../app/index.js';

/** Documents remembered per session for reads without a task id; the oldest are forgotten first. */
const MAX_REMEMBERED = 2000;

export const taskIdInput = z
  .string()
  .min(1, 'task_id must not be empty')
  .max(256, 'task_id is at most 256 characters')
  .optional()
  .describe(
    'Your stable id for the task (the same one record_feedback takes). groove then counts which of the ' +
      'documents served to this task you fetch afterwards (`groove status`); nothing else changes.',
  );

type UsageOwner = Pick<KnowledgeBase, 'usage'>;

/** One client session's view: which task it last served each document to, per knowledge base. */
export class SessionTaskUsage {
  private readonly lastTask = new Map<UsageOwner, Map<string, string>>();

  /** A search under `taskId` served `paths` of `kb` (best first); without a task id nothing is kept. */
  served(kb: UsageOwner, taskId: string | undefined, paths: readonly string[]): void {
    if (taskId === undefined || paths.length === 0) return;
    kb.usage.noteServed(taskId, paths);
    const remembered = this.lastTask.get(kb) ?? new Map<string, string>();
    this.lastTask.set(kb, remembered);
    for (const path of paths) {
      remembered.delete(path);
      remembered.set(path, taskId);
    }
    for (const oldest of remembered.keys()) {
      if (remembered.size <= MAX_REMEMBERED) break;
      remembered.delete(oldest);
    }
  }

  /** `kb`'s document `path` was read, for `taskId` or else the task this session last served it to. */
  fetched(kb: UsageOwner, taskId: string | undefined, path: string): void {
    const task = taskId ?? this.lastTask.get(kb)?.get(path);
    if (task !== undefined) kb.usage.noteFetched(task, path);
  }
}
