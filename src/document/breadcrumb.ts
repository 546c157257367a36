// The breadcrumb `title > ancestor headings > heading` that gives every chunk its document context.

import { truncateCodePoints } from '../core/utf8-bytes.js';

/** Breadcrumbs longer than this many code points are cut. */
export const MAX_BREADCRUMB_CHARS = 200;

const SEPARATOR = ' > ';

/** Join the non-empty parts with ` > `, skipping a part equal to the one before it, capped at 200 code points. */
export function buildBreadcrumb(parts: ReadonlyArray<string | null>): string {
  const kept: string[] = [];
  for (const part of parts) {
    const trimmed = part?.trim() ?? '';
    if (trimmed === '' || trimmed === kept[kept.length - 1]) continue;
    kept.push(trimmed);
  }
  const joined = kept.join(SEPARATOR);
  if (joined.length <= MAX_BREADCRUMB_CHARS) return joined;
  return truncateCodePoints(joined, MAX_BREADCRUMB_CHARS).trimEnd();
}
