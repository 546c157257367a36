// A bounded reader of the ZIP container under DOCX, XLSX and PPTX. It reads the central directory, refuses an
// archive whose declared sizes pass the cap, then inflates each entry in small steps, counting what comes out,
// and stops the moment the real output passes the cap: an entry that lies about its size (a zip bomb) costs at
// most one step beyond the cap, never the whole bomb. A library is never handed the file as it came: it gets
// `listedOnly()`, the archive rebuilt from the directory's entries alone, so an entry hidden from the directory
// (a local header it does not list, which a streaming reader walking local headers would meet) reaches no parser.
import { Inflate } from 'fflate';
import { ExtractRefusal } from './extract-refusal.js';

export interface ZipLimits {
  /** Decompressed bytes of all entries together. */
  maxDecompressedBytes: number;
  /** Entries in the archive. */
  maxEntries: number;
}

interface CentralEntry {
  name: string;
  rawName: Uint8Array;
  flags: number;
  modified: number;
  crc: number;
  method: number;
  compressedSize: number;
  declaredSize: number;
  localHeaderOffset: number;
}

/** Compressed bytes fed to the inflater per step: deflate expands at most ~1032×, so ≤ ~4 MiB per step. */
const STEP_BYTES = 4096;
const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

export class BoundedZip {
  private readonly entries: Map<string, CentralEntry>;
  private inflatedTotal = 0;

  private constructor(
    private readonly bytes: Uint8Array,
    entries: CentralEntry[],
    private readonly limits: ZipLimits,
  ) {
    this.entries = new Map(entries.map((entry) => [entry.name, entry]));
  }

  /** Open an archive: its directory is read and the declared sizes checked; nothing is inflated yet. */
  static open(bytes: Uint8Array, limits: ZipLimits): BoundedZip {
    const entries = readCentralDirectory(bytes, limits);
    const declared = entries.reduce((sum, entry) => sum + entry.declaredSize, 0);
    if (declared > limits.maxDecompressedBytes) {
      throw new ExtractRefusal(
        'too-large-inflated',
        `its entries declare ${declared} bytes uncompressed, over the ${limits.maxDecompressedBytes}-byte cap`,
      );
    }
    return new BoundedZip(bytes, entries, limits);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The entry's bytes, or null when absent; throws an ExtractRefusal when the cap is passed or data is bad. */
  read(name: string): Uint8Array | null {
    const entry = this.entries.get(name);
    if (!entry) return null;
    const parts: Uint8Array[] = [];
    this.inflate(entry, (part) => parts.push(part));
    return concat(parts);
  }

  /** The entry as UTF-8 text, or null when absent. */
  readText(name: string): string | null {
    const bytes = this.read(name);
    return bytes === null ? null : new TextDecoder('utf-8').decode(bytes);
  }

  /** Inflate every entry once, keeping nothing: proves the whole archive fits the cap before a library opens it. */
  verifyAll(): void {
    for (const entry of this.entries.values()) this.inflate(entry, () => {});
  }

  /**
   * The archive rebuilt from the central directory's entries alone, each with a fresh local header that states
   * its sizes (no data descriptor) before its compressed bytes as they were: what the directory lists is all a
   * reader of either kind — by directory or by local headers — can find in it.
   */
  listedOnly(): Uint8Array {
    const entries = [...this.entries.values()];
    const parts: { entry: CentralEntry; data: Uint8Array; offset: number }[] = [];
    let size = 0;
    for (const entry of entries) {
      const data = entryData(this.bytes, entry);
      parts.push({ entry, data, offset: size });
      size += 30 + entry.rawName.length + data.length;
    }
    const directoryOffset = size;
    size += entries.reduce((sum, entry) => sum + 46 + entry.rawName.length, 0) + 22;
    if (size > 0xffffffff || entries.some((entry) => entry.declaredSize > 0xfffffffe)) {
      throw new ExtractRefusal('too-large-inflated', 'it is larger than a ZIP without ZIP64 can hold');
    }
    const out = new Uint8Array(size);
    const view = new DataView(out.buffer);
    for (const { entry, data, offset } of parts) {
      writeLocalHeader(view, offset, entry, data.length);
      out.set(entry.rawName, offset + 30);
      out.set(data, offset + 30 + entry.rawName.length);
    }
    let at = directoryOffset;
    for (const { entry, data, offset } of parts) {
      writeDirectoryEntry(view, at, entry, data.length, offset);
      out.set(entry.rawName, at + 46);
      at += 46 + entry.rawName.length;
    }
    view.setUint32(at, EOCD_SIGNATURE, true);
    view.setUint16(at + 8, entries.length, true);
    view.setUint16(at + 10, entries.length, true);
    view.setUint32(at + 12, at - directoryOffset, true);
    view.setUint32(at + 16, directoryOffset, true);
    return out;
  }

  private inflate(entry: CentralEntry, sink: (part: Uint8Array) => void): void {
    const data = entryData(this.bytes, entry);
    const count = (part: Uint8Array) => {
      this.inflatedTotal += part.length;
      if (this.inflatedTotal > this.limits.maxDecompressedBytes) {
        throw new ExtractRefusal(
          'too-large-inflated',
          `it inflates to more than the ${this.limits.maxDecompressedBytes}-byte cap`,
        );
      }
      sink(part);
    };
    if (entry.method === 0) {
      count(data);
      return;
    }
    if (entry.method !== 8) {
      throw new ExtractRefusal('corrupt', `entry "${entry.name}" uses compression method ${entry.method}`);
    }
    const inflater = new Inflate((part) => count(part));
    try {
      for (let at = 0; at < data.length; at += STEP_BYTES) {
        const end = Math.min(at + STEP_BYTES, data.length);
        inflater.push(data.subarray(at, end), end === data.length);
      }
      if (data.length === 0) inflater.push(new Uint8Array(0), true);
    } catch (error) {
      if (error instanceof ExtractRefusal) throw error;
      throw new ExtractRefusal(
        'corrupt',
        `entry "${entry.name}" does not inflate (${(error as Error).message})`,
      );
    }
  }
}

/** Bit 3: sizes follow the data in a descriptor. The rebuilt headers state them, so the bit is cleared. */
const DATA_DESCRIPTOR_FLAG = 0x0008;

function writeLocalHeader(view: DataView, at: number, entry: CentralEntry, compressedSize: number): void {
  view.setUint32(at, LOCAL_SIGNATURE, true);
  view.setUint16(at + 4, 20, true);
  view.setUint16(at + 6, entry.flags & ~DATA_DESCRIPTOR_FLAG, true);
  view.setUint16(at + 8, entry.method, true);
  view.setUint32(at + 10, entry.modified, true);
  view.setUint32(at + 14, entry.crc, true);
  view.setUint32(at + 18, compressedSize, true);
  view.setUint32(at + 22, entry.declaredSize, true);
  view.setUint16(at + 26, entry.rawName.length, true);
}

function writeDirectoryEntry(
  view: DataView,
  at: number,
  entry: CentralEntry,
  compressedSize: number,
  localOffset: number,
): void {
  view.setUint32(at, CENTRAL_SIGNATURE, true);
  view.setUint16(at + 4, 20, true);
  view.setUint16(at + 6, 20, true);
  view.setUint16(at + 8, entry.flags & ~DATA_DESCRIPTOR_FLAG, true);
  view.setUint16(at + 10, entry.method, true);
  view.setUint32(at + 12, entry.modified, true);
  view.setUint32(at + 16, entry.crc, true);
  view.setUint32(at + 20, compressedSize, true);
  view.setUint32(at + 24, entry.declaredSize, true);
  view.setUint16(at + 28, entry.rawName.length, true);
  view.setUint32(at + 42, localOffset, true);
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function corrupt(detail: string): ExtractRefusal {
  return new ExtractRefusal('corrupt', `it is not a readable ZIP container (${detail})`);
}

function readCentralDirectory(bytes: Uint8Array, limits: ZipLimits): CentralEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record sits in the last 22 + 65535 (comment) bytes.
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65535); at--) {
    if (view.getUint32(at, true) === EOCD_SIGNATURE) {
      eocd = at;
      break;
    }
  }
  if (eocd === -1) throw corrupt('no end-of-directory record; truncated?');
  const count = view.getUint16(eocd + 10, true);
  const directorySize = view.getUint32(eocd + 12, true);
  const directoryOffset = view.getUint32(eocd + 16, true);
  if (count > limits.maxEntries) {
    throw new ExtractRefusal(
      'too-many-entries',
      `it has ${count} entries, over the cap of ${limits.maxEntries}`,
    );
  }
  if (directoryOffset + directorySize > bytes.length) throw corrupt('directory past the end; truncated?');
  const entries: CentralEntry[] = [];
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL_SIGNATURE)
      throw corrupt('bad directory entry');
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const name = new TextDecoder('utf-8').decode(bytes.subarray(at + 46, at + 46 + nameLength));
    let compressedSize = view.getUint32(at + 20, true);
    let declaredSize = view.getUint32(at + 24, true);
    let localHeaderOffset = view.getUint32(at + 42, true);
    if (compressedSize === 0xffffffff || declaredSize === 0xffffffff || localHeaderOffset === 0xffffffff) {
      const zip64 = readZip64Extra(view, at + 46 + nameLength, extraLength, {
        declaredSize,
        compressedSize,
        localHeaderOffset,
      });
      ({ compressedSize, declaredSize, localHeaderOffset } = zip64);
    }
    entries.push({
      name,
      rawName: bytes.subarray(at + 46, at + 46 + nameLength),
      flags: view.getUint16(at + 8, true),
      modified: view.getUint32(at + 12, true),
      crc: view.getUint32(at + 16, true),
      method: view.getUint16(at + 10, true),
      compressedSize,
      declaredSize,
      localHeaderOffset,
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Sizes from the ZIP64 extra field (id 1), in the order the spec gives them, for the fields marked 0xFFFFFFFF. */
function readZip64Extra(
  view: DataView,
  start: number,
  length: number,
  fields: { declaredSize: number; compressedSize: number; localHeaderOffset: number },
) {
  const out = { ...fields };
  let at = start;
  while (at + 4 <= start + length) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (id === 1) {
      let field = at + 4;
      const next = () => {
        const value = Number(view.getBigUint64(field, true));
        field += 8;
        return value;
      };
      if (fields.declaredSize === 0xffffffff) out.declaredSize = next();
      if (fields.compressedSize === 0xffffffff) out.compressedSize = next();
      if (fields.localHeaderOffset === 0xffffffff) out.localHeaderOffset = next();
      return out;
    }
    at += 4 + size;
  }
  throw corrupt('ZIP64 sizes missing');
}

function entryData(bytes: Uint8Array, entry: CentralEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL_SIGNATURE) {
    throw corrupt(`entry "${entry.name}" has no local header`);
  }
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw corrupt(`entry "${entry.name}" runs past the end; truncated?`);
  return bytes.subarray(start, end);
}
