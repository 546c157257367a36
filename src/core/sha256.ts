// SHA-256 as lowercase hex: content hashes, folder names derived from a path, index fingerprints.
import { createHash } from 'node:crypto';

/** SHA-256 of the text (as UTF-8) or the bytes, as 64 lowercase hex characters. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
