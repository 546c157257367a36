// UTF-8 byte arithmetic over JS strings without node:buffer, so the core stays pure and byte offsets
// agree with what `Buffer.from(text)` would produce (a lone surrogate encodes as U+FFFD, 3 bytes).

/** UTF-8 byte length of `text.slice(start, end)`; a surrogate pair is only counted as 4 when both halves are inside. */
export function countUtf8Bytes(text: string, start = 0, end: number = text.length): number {
  let bytes = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < end && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** UTF-8 length of the code point starting at `index`, and how many UTF-16 units it spans. */
export function measureCodePointAt(text: string, index: number): { bytes: number; units: number } {
  const code = text.charCodeAt(index);
  if (code < 0x80) return { bytes: 1, units: 1 };
  if (code < 0x800) return { bytes: 2, units: 1 };
  if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
    return { bytes: 4, units: 2 };
  }
  return { bytes: 3, units: 1 };
}

/** The first `maxCodePoints` code points of `text` (never half a surrogate pair). */
export function truncateCodePoints(text: string, maxCodePoints: number): string {
  // Fast path: a string of at most maxCodePoints UTF-16 units cannot have more code points.
  if (text.length <= maxCodePoints) return text;
  let units = 0;
  for (let count = 0; count < maxCodePoints && units < text.length; count++) {
    const code = text.charCodeAt(units);
    units += code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(units + 1)) ? 2 : 1;
  }
  return text.slice(0, units);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes, cut at a line end when there is one. */
export function truncateToUtf8Bytes(text: string, maxBytes: number): string {
  if (countUtf8Bytes(text) <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    const { bytes: size, units } = measureCodePointAt(text, end);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += units;
  }
  const lineEnd = text.lastIndexOf('\n', end);
  return text.slice(0, lineEnd > 0 ? lineEnd + 1 : end);
}
