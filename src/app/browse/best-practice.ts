// get_best_practice: the document a configured path template names for a target, optionally one `## section`
// of it. Templates are tried in order and the first one that names a servable indexed document wins; every
// read goes through get_document, so the same refusals apply (links, `..`, unindexed files, over 1 MiB).
import { GrooveError } from '../../errors.js';
import { type GetDocumentOptions, getDocument } from './get-document.js';

export interface BestPracticeRequest {
  target: string;
  /** One `##` section of the document, matched case-insensitively. */
  category?: string;
}

export interface BestPractice {
  target: string;
  category?: string;
  path: string;
  content: string;
}

export type BestPracticeResult = { ok: true; practice: BestPractice } | { ok: false; message: string };

const MAX_TARGET_BYTES = 200;

/** A target is one path segment: no separators, no dot segments, no control characters. */
function targetProblem(target: string): string | null {
  if (target.trim() === '') return 'must not be empty';
  if (Buffer.byteLength(target) > MAX_TARGET_BYTES) return `must be at most ${MAX_TARGET_BYTES} bytes`;
  if (/[/\\]/.test(target) || target === '.' || target === '..') return 'must be a name, not a path';
  if (/[\u0000-\u001f\u007f]/.test(target)) return 'must not contain control characters';
  return null;
}

export async function getBestPractice(
  request: BestPracticeRequest,
  templates: readonly string[],
  options: GetDocumentOptions,
): Promise<BestPracticeResult> {
  if (templates.length === 0) {
    throw new GrooveError('INVALID_ARGUMENT', 'get_best_practice is not configured', {
      hint: 'list path templates in groove.toml, e.g. [best_practice] path_templates = ["best-practices/{target}/PERFECT.md"]',
    });
  }
  const problem = targetProblem(request.target);
  if (problem) throw new GrooveError('INVALID_ARGUMENT', `target ${problem}`);
  for (const template of templates) {
    const found = await getDocument(template.replaceAll('{target}', request.target), options);
    if (!found.ok) continue;
    const { document } = found;
    if (request.category === undefined)
      return {
        ok: true,
        practice: { target: request.target, path: document.path, content: document.content },
      };
    const section = sectionOf(document.content, request.category);
    if (section === null) {
      return {
        ok: false,
        message: `"${document.path}" has no "## ${request.category}" section; omit category to get the whole document`,
      };
    }
    return {
      ok: true,
      practice: { target: request.target, category: request.category, path: document.path, content: section },
    };
  }
  return {
    ok: false,
    message: `no best-practice document for "${request.target}" (${templates.length} path templates tried)`,
  };
}

/** The `## heading` section whose title equals `name` (case-insensitive), up to the next `##`, or null. */
export function sectionOf(markdown: string, name: string): string | null {
  const lines = markdown.split(/\r?\n/);
  const wanted = name.trim().toLowerCase();
  const start = lines.findIndex(
    (line) => /^##\s/.test(line) && line.slice(2).trim().toLowerCase() === wanted,
  );
  if (start < 0) return null;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => /^#{1,2}\s/.test(line));
  return [lines[start], ...(end < 0 ? rest : rest.slice(0, end))].join('\n').trimEnd();
}
