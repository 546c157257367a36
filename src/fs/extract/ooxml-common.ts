// What DOCX, XLSX and PPTX share: the bounded archive, the refusal of a password-protected file (an encrypted
// Office file is an OLE compound file, not a ZIP), and the title, date and keywords of docProps/core.xml.
import type { ExtractionLimits } from './extract-job.js';
import { ExtractRefusal } from './extract-refusal.js';
import { BoundedZip } from './zip-guard.js';

const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** Open the OOXML container with the caps, or refuse it (encrypted, not a ZIP, missing its main part). */
export function openOoxml(bytes: Uint8Array, limits: ExtractionLimits, mainPart: string): BoundedZip {
  if (OLE_MAGIC.every((byte, i) => bytes[i] === byte)) {
    throw new ExtractRefusal(
      'encrypted',
      'it is password-protected (or an old binary Office file saved under this extension)',
    );
  }
  const zip = BoundedZip.open(bytes, {
    maxDecompressedBytes: limits.maxDecompressedBytes,
    maxEntries: limits.maxZipEntries,
  });
  if (!zip.has(mainPart)) throw new ExtractRefusal('corrupt', `it has no ${mainPart}`);
  return zip;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, entity: string) => {
    if (entity[0] === '#') {
      const code =
        entity[1] === 'x' || entity[1] === 'X'
          ? parseInt(entity.slice(2), 16)
          : parseInt(entity.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return XML_ENTITIES[entity.toLowerCase()] ?? whole;
  });
}

function elementText(xml: string, tag: string): string | null {
  const match = new RegExp(`<${tag}(?:\\s[^>]*)?>([^<]*)</${tag}>`).exec(xml);
  const text = match ? decodeXmlText(match[1]!).trim() : '';
  return text === '' ? null : text;
}

/** docProps/core.xml: title, the created (else modified) date as YYYY-MM-DD, keywords as tags. */
export function readCoreProperties(zip: BoundedZip): {
  title: string | null;
  date: string | null;
  tags: string[];
} {
  const xml = zip.readText('docProps/core.xml');
  if (xml === null) return { title: null, date: null, tags: [] };
  const stamp = elementText(xml, 'dcterms:created') ?? elementText(xml, 'dcterms:modified');
  const date = stamp && /^\d{4}-\d{2}-\d{2}/.test(stamp) ? stamp.slice(0, 10) : null;
  const keywords = elementText(xml, 'cp:keywords');
  const tags = keywords
    ? keywords
        .split(/[,;]/)
        .map((word) => word.trim())
        .filter((word) => word !== '')
    : [];
  return { title: elementText(xml, 'dc:title'), date, tags };
}
