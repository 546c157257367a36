// The `kb://` resource addresses: `kb://doc/<path>` for one document and `kb://topic/<folder prefix>` for a
// folder group (`kb://topic/` is the root). The path or prefix is one percent-encoded component (a `/` becomes
// `%2F`), so an address never has more segments than its template.

export const DOC_URI_PREFIX = 'kb://doc/';
export const TOPIC_URI_PREFIX = 'kb://topic/';

export function docUri(path: string): string {
  return `${DOC_URI_PREFIX}${encodeURIComponent(path)}`;
}

export function topicUri(prefix: string): string {
  return `${TOPIC_URI_PREFIX}${encodeURIComponent(prefix)}`;
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
