// The one printer for paths (and one-line messages) that go to a terminal or a log as text. A file name may
// hold any character but `/` and NUL: a newline in it could forge a line of output, an ESC could drive the
// terminal, a bidi override could show another name than the real one. Every such character is replaced by
// a visible escape. JSON output keeps the real string (JSON escapes controls itself).

/**
 * Characters that never print as themselves: C0 controls, DEL, C1 controls, the bidi marks, embeddings,
 * overrides and isolates (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069) and the line and paragraph
 * separators U+2028–U+2029.
 */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.charCodeAt(0);
  // C0 and DEL as the familiar byte form (`\x1b`); everything above as its code point (`\u0085`, `\u202e`).
  return code <= 0x7f
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * A path as it may be printed: unprintable characters become `\n`, `\x1b`, `\u202e` and the like; all other
 * text, backslashes included, is unchanged, so applying it twice changes nothing more.
 */
export function displayPath(path: string): string {
  return path.replace(UNPRINTABLE, escapeOne);
}

/**
 * A message that must stay one line (a warning, an error, a log line), escaped like a path: whatever paths or
 * names were interpolated into it, it cannot break into two lines or carry terminal controls.
 */
export function displayLine(message: string): string {
  return displayPath(message);
}
