// The golden set's sidecar `<golden>.meta.yml`: when the set was made and the corpus size it was judged
// against. Read strictly (a typo must not silently switch the age check off) and written by `golden stamp` and
// `golden build`. Without a sidecar nothing is checked, so hand-written sets keep working unchanged.
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { yamlFailureReason } from '../../document/yaml-depth.js';
import { GrooveError } from '../../errors.js';
import type { GoldenMeta } from '../../measure/golden-freshness.js';
import type { ReadCheckedFile } from './golden-file.js';

export type { GoldenMeta } from '../../measure/golden-freshness.js';

const MAX_META_BYTES = 64 * 1024;
const FIELDS = ['created', 'corpus_documents', 'corpus_chunks', 'source'] as const;

/** `golden.yml` → `golden.meta.yml`; a name without .yml/.yaml gets `.meta.yml` appended. */
export function goldenMetaPathFor(goldenPath: string): string {
  return goldenPath.replace(/\.ya?ml$/i, '') + '.meta.yml';
}

/** The sidecar next to `goldenPath`, or null when there is none. */
export function loadGoldenMeta(goldenPath: string, options: { read: ReadCheckedFile }): GoldenMeta | null {
  const metaPath = goldenMetaPathFor(goldenPath);
  const read = options.read(metaPath, { maxBytes: MAX_META_BYTES });
  if (!read.ok) {
    if (read.reason === 'vanished') return null;
    throw new GrooveError(
      'FILE_REFUSED',
      `refusing to read the golden sidecar "${metaPath}": ${read.detail}`,
      {
        hint: 'use a regular file of its own (no symlink, no hard link), or delete it to skip the age check',
      },
    );
  }
  return parseGoldenMeta(Buffer.from(read.bytes).toString('utf8'), metaPath);
}

/** Parse sidecar text; every field is required and no other key is allowed. */
export function parseGoldenMeta(text: string, displayPath: string): GoldenMeta {
  const fail = (reason: string): never => {
    throw new GrooveError('GOLDEN_INVALID', `failed to parse golden sidecar "${displayPath}": ${reason}`, {
      hint: 'rewrite it with `groove eval golden stamp`, or delete it to skip the age check',
    });
  };
  let raw: unknown;
  try {
    raw = parseYaml(text, { uniqueKeys: true, maxAliasCount: 10 });
  } catch (cause) {
    return fail(yamlFailureReason(cause));
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('expected a mapping');
  const value = raw as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    if (!(FIELDS as readonly string[]).includes(key)) {
      fail(`unknown field \`${key}\`, expected one of ${FIELDS.map((f) => `\`${f}\``).join(', ')}`);
    }
  }
  for (const key of FIELDS) if (value[key] === undefined) fail(`missing field \`${key}\``);
  // YAML may read an unquoted timestamp as a string or (with some schemas) a Date; accept both.
  const createdValue = value.created instanceof Date ? value.created.toISOString() : value.created;
  if (typeof createdValue !== 'string' || Number.isNaN(Date.parse(createdValue))) {
    fail('`created` must be an RFC 3339 time such as 2026-04-24T05:32:01+00:00');
  }
  const count = (key: 'corpus_documents' | 'corpus_chunks'): number => {
    const n = value[key];
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
      return fail(`\`${key}\` must be a whole number of 0 or more`);
    }
    return n;
  };
  if (typeof value.source !== 'string' || value.source.trim() === '')
    fail('`source` must be a non-empty string');
  return {
    created: createdValue as string,
    corpusDocuments: count('corpus_documents'),
    corpusChunks: count('corpus_chunks'),
    source: value.source as string,
  };
}

/** The sidecar text: the four fields and a comment saying what reads them. */
export function formatGoldenMeta(meta: GoldenMeta): string {
  const body = stringifyYaml({
    created: meta.created,
    corpus_documents: meta.corpusDocuments,
    corpus_chunks: meta.corpusChunks,
    source: meta.source,
  });
  return `# groove eval: when this golden set was made and the corpus it was judged against.\n# Past [eval] max_golden_age_days eval refuses the set; rebuild or re-stamp it.\n${body}`;
}
