// Small files that expand into huge work when extracted, built in memory for the extraction-bound tests and
// bench/extract-bounds.ts (no large binaries are committed): a PDF whose content stream inflates to gigabytes, a
// long single-line JavaScript file, and an XLSX hiding a huge entry from its central directory. Test-only.
import zlib from 'node:zlib';
import { makeXlsx } from './office-files.js';

const MIB = 1024 * 1024;

/**
 * Raw deflate data that inflates to `inflatedBytes` zeros (a multiple of 1 MiB), made without ever holding the
 * zeros: one MiB of zeros compressed by a fresh deflater (so it refers to nothing before it), ended by a full
 * flush (byte-aligned, not final), repeated, then one empty final block.
 */
export function rawDeflatedZeros(inflatedBytes: number): Buffer {
  const flush = zlib.constants.Z_FULL_FLUSH;
  const block = zlib.deflateRawSync(Buffer.alloc(MIB), { level: 9, finishFlush: flush });
  const blocks = Math.ceil(inflatedBytes / MIB);
  return Buffer.concat([
    ...Array.from({ length: blocks }, () => block),
    zlib.deflateRawSync(Buffer.alloc(0)),
  ]);
}

/** The same as a zlib stream (what a PDF's FlateDecode reads): header, raw data, Adler-32 of the zeros. */
function zlibZeros(inflatedBytes: number): Buffer {
  const length = Math.ceil(inflatedBytes / MIB) * MIB;
  // Adler-32 of n zeros: a stays 1, b adds a once per byte.
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((length % 65521) << 16) | 1) >>> 0);
  return Buffer.concat([Buffer.from([0x78, 0xda]), rawDeflatedZeros(inflatedBytes), adler]);
}

/** A one-page PDF whose page content stream (FlateDecode) inflates to `inflatedBytes` zeros. */
export function makeInflatingPdf(inflatedBytes: number): Buffer {
  const stream = zlibZeros(inflatedBytes);
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let size = 0;
  const add = (part: string | Buffer) => {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    parts.push(bytes);
    size += bytes.length;
  };
  const object = (body: string | Buffer[]) => {
    offsets.push(size);
    add(`${offsets.length} 0 obj\n`);
    if (typeof body === 'string') add(body);
    else for (const part of body) add(part);
    add('\nendobj\n');
  };
  add('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  object('<< /Type /Catalog /Pages 2 0 R >>');
  object('<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>');
  object([
    Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
    stream,
    Buffer.from('\nendstream', 'latin1'),
  ]);
  const xref = size;
  add(`xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n`);
  for (const offset of offsets) add(`${String(offset).padStart(10, '0')} 00000 n \n`);
  add(`trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/** A JavaScript file of about `bytes` bytes on one line (minified-style statements, no line break). */
export function makeSingleLineJs(bytes: number): string {
  const statement = 'a=b+c*d;';
  return `${statement.repeat(Math.ceil(bytes / statement.length))}\n`;
}

/**
 * A sound one-sheet XLSX with one more entry, `xl/worksheets/sheet9.xml` (`inflatedBytes` of zeros once inflated),
 * placed before all others as a local header that its central directory does not list. A reader that walks local
 * headers (a streaming unzipper) meets it first; one that reads the directory never sees it.
 */
export async function makeHiddenEntryXlsx(inflatedBytes: number): Promise<Buffer> {
  const sound = await makeXlsx([
    {
      name: 'Sheet',
      rows: [
        ['name', 'value'],
        ['quokka', 1],
      ],
    },
  ]);
  const data = rawDeflatedZeros(inflatedBytes);
  const name = Buffer.from('xl/worksheets/sheet9.xml');
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4); // version needed
  header.writeUInt16LE(8, 8); // deflate
  header.writeUInt32LE(data.length, 18);
  header.writeUInt32LE(Math.min(inflatedBytes, 0xfffffffe), 22);
  header.writeUInt16LE(name.length, 26);
  const hidden = Buffer.concat([header, name, data]);
  return Buffer.concat([hidden, shiftZip(sound, hidden.length)]);
}

/** The archive's central directory and end record rewritten for `shift` bytes put before the archive. */
function shiftZip(zip: Buffer, shift: number): Buffer {
  const out = Buffer.from(zip);
  const eocd = out.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = out.readUInt16LE(eocd + 10);
  const directory = out.readUInt32LE(eocd + 16);
  out.writeUInt32LE(directory + shift, eocd + 16);
  let at = directory;
  for (let i = 0; i < count; i++) {
    out.writeUInt32LE(out.readUInt32LE(at + 42) + shift, at + 42);
    at += 46 + out.readUInt16LE(at + 28) + out.readUInt16LE(at + 30) + out.readUInt16LE(at + 32);
  }
  return out;
}
