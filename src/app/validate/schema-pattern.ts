// A frontmatter schema's `pattern`, matched by a linear-time engine (RE2, through re2js): a schema file can come
// from anyone who can write to the knowledge base, so no pattern may take time that grows faster than the value
// it tests. Patterns are written in JavaScript syntax (`\u00e9`, `(?<name>…)` are translated); what RE2 cannot
// run in linear time — backreferences and lookaround — is refused by name, never run another way.
import { RE2JS } from 're2js';

export interface SchemaPattern {
  /** As the schema wrote it. */
  source: string;
  /** Whether the pattern occurs anywhere in the value (unanchored, like RegExp.prototype.test). */
  test(value: string): boolean;
}

export type CompiledPattern = { ok: true; pattern: SchemaPattern } | { ok: false; reason: string };

/** Syntax a linear-time engine cannot run, as found by `unsupportedSyntax`. */
const UNSUPPORTED: readonly { test: RegExp; what: string }[] = [
  { test: /^\\[1-9]/, what: 'a backreference' },
  { test: /^\\k</, what: 'a named backreference' },
  { test: /^\(\?<[=!]/, what: 'a lookbehind' },
  { test: /^\(\?[=!]/, what: 'a lookahead' },
];

/** The first construct of `source` (outside a character class) that needs a backtracking engine, or null. */
function unsupportedSyntax(source: string): { what: string; text: string } | null {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const rest = source.slice(i, i + 4);
    if (!inClass) {
      const found = UNSUPPORTED.find((rule) => rule.test.test(rest));
      if (found) return { what: found.what, text: found.test.exec(rest)![0] };
    }
    const ch = source[i];
    if (ch === '\\') i++;
    else if (ch === '[') inClass = true;
    else if (ch === ']') inClass = false;
  }
  return null;
}

/** Compile a schema pattern, or say in groove's words why it cannot be used. */
export function compileSchemaPattern(source: string): CompiledPattern {
  const unsupported = unsupportedSyntax(source);
  if (unsupported) {
    return {
      ok: false,
      reason: `uses ${unsupported.what} (${unsupported.text}), which schema patterns do not support: they run on a linear-time engine so that no pattern can hang validation`,
    };
  }
  try {
    const regex = RE2JS.compile(RE2JS.translateRegExp(source));
    return { ok: true, pattern: { source, test: (value) => regex.test(value) } };
  } catch (cause) {
    const detail = String((cause as Error).message ?? cause).replace(/^error parsing regexp: /, '');
    return { ok: false, reason: `is not a valid regular expression: ${detail}` };
  }
}
