// Why an extractor refused a file. Thrown inside the extraction process, sent back as data, and worded for the
// user by describeExtractRefusal.

export type ExtractRefusalReason =
  | 'encrypted'
  | 'corrupt'
  | 'no-text'
  | 'mojibake'
  | 'too-large-inflated'
  | 'too-many-entries'
  | 'too-much-memory'
  | 'timeout'
  | 'crashed';

export class ExtractRefusal extends Error {
  constructor(
    readonly reason: ExtractRefusalReason,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ExtractRefusal';
  }
}

/** What the user can do about each refusal. */
const FIXES: Record<ExtractRefusalReason, string | null> = {
  encrypted: 'groove does not read password-protected files; save an unprotected copy to index it',
  corrupt: 'open and re-save it in its application',
  'no-text': 'groove does no OCR; export it with a text layer',
  mojibake: 'its text layer is garbled; re-export it with embedded Unicode fonts',
  'too-large-inflated': 'a zip bomb, or raise [parsers] max_decompressed_size if the file is sound',
  'too-many-entries': null,
  'too-much-memory': 'raise [parsers] max_memory if the file is sound',
  timeout: 'raise [parsers] timeout_seconds if the file is sound',
  crashed: null,
};

/** One warning line, e.g. `skipped docs/a.pdf: it is encrypted (groove does not read …)`. */
export function describeExtractRefusal(
  shownPath: string,
  refusal: { reason: ExtractRefusalReason; detail: string },
): string {
  const fix = FIXES[refusal.reason];
  return fix ? `skipped ${shownPath}: ${refusal.detail} (${fix})` : `skipped ${shownPath}: ${refusal.detail}`;
}
