// Content hashing for incremental indexing: SHA-256 over a file's raw bytes, as lowercase hex.
import { createHash } from 'node:crypto';

/** SHA-256 of the bytes as 64 lowercase hex characters (the `documents.content_hash` format). */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
