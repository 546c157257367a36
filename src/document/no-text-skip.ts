// The one skip that is a fact rather than a problem: a file with nothing searchable in it (empty, blank,
// frontmatter only, an empty .docx). The indexer words its skip with this reason; doctor tells it from refusals.

/** Why a file with nothing searchable was skipped. */
export const NO_TEXT_REASON = 'it has no text to index';

/** Whether a recorded skip message (`skipped <path>: <reason>`) is only the no-text one. */
export function isNoTextSkip(file: { reason: string }): boolean {
  return file.reason.endsWith(`: ${NO_TEXT_REASON}`);
}
