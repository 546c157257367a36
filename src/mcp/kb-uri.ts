// The `kb://` resource addresses: `kb://doc/<path>` for one document and `kb://topic/<folder prefix>` for a
// folder group (`kb://topic/` is the root). The path or prefix is one percent-encoded component (a `/` becomes
// `%2F`), so an address never has more segments than its template. A server of several KBs puts the KB's name
// first: `kb://doc/<kb>/<path>` and `kb://topic/<kb>/<prefix>` (a KB name needs no encoding).

export const DOC_URI_PREFIX = 'kb://doc/';
export const TOPIC_URI_PREFIX = 'kb://topic/';

/** The doc address prefix of one KB: `kb://doc/` alone, or `kb://doc/<kb>/` when several KBs are served. */
export function docPrefix(kb?: string): string {
  return kb === undefined ? DOC_URI_PREFIX : `${DOC_URI_PREFIX}${kb}/`;
}

export function topicPrefix(kb?: string): string {
  return kb === undefined ? TOPIC_URI_PREFIX : `${TOPIC_URI_PREFIX}${kb}/`;
}

export function docUri(path: string, kb?: string): string {
  return `${docPrefix(kb)}${encodeURIComponent(path)}`;
}

export function topicUri(prefix: string, kb?: string): string {
  return `${topicPrefix(kb)}${encodeURIComponent(prefix)}`;
}

/** The text of a percent-encoded component, or null when it is not valid UTF-8 percent-encoding. */
export function decodeComponent(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

export function mimeTypeOf(path: string): string {
  return path.toLowerCase().endsWith('.md') ? 'text/markdown' : 'text/plain';
}
