// PPTX → one section per slide in presentation order (heading = the slide's title placeholder, else `slide N`),
// the slide's text by shape and paragraph, table rows as cells joined by ` | `, then its speaker notes. No
// maintained library extracts PPTX text on Node, so the slide XML is read with saxes from the bounded archive.
import { SaxesParser } from 'saxes';
import type { ExtractedSection, Extraction } from '../../document/extracted-document.js';
import { type ExtractionLimits, TextBudget } from './extract-job.js';
import { ExtractRefusal } from './extract-refusal.js';
import { openOoxml, readCoreProperties } from './ooxml-common.js';
import type { BoundedZip } from './zip-guard.js';

/** Placeholders whose text is furniture, not content. */
const SKIPPED_PLACEHOLDERS = new Set(['sldNum', 'dt', 'ftr', 'hdr', 'sldImg']);

export async function extractPptx(bytes: Uint8Array, limits: ExtractionLimits): Promise<Extraction> {
  const zip = openOoxml(bytes, limits, 'ppt/presentation.xml');
  const core = readCoreProperties(zip);
  const slides = slideOrder(zip);
  const budget = new TextBudget(limits.maxTextChars);
  const sections: ExtractedSection[] = [];
  let openingHeading: string | null = null;
  for (const [position, slidePath] of slides.slice(0, limits.maxSlides).entries()) {
    if (budget.exhausted) break;
    const xml = zip.readText(slidePath);
    if (xml === null) continue;
    const slide = readShapes(xml, slidePath);
    const notesPath = relatedPart(zip, slidePath, '/notesSlide');
    const notesXml = notesPath ? zip.readText(notesPath) : null;
    const notes = notesXml === null ? '' : readShapes(notesXml, notesPath!).body.join('\n').trim();
    const title = slide.title?.replace(/\s+/g, ' ').trim() || null;
    openingHeading ??= title;
    const heading = title ?? `slide ${position + 1}`;
    const parts = [slide.body.join('\n').trim()];
    if (notes !== '') parts.push(`Notes:\n${notes}`);
    const text = budget.take(parts.filter((part) => part !== '').join('\n\n'));
    sections.push({ heading: budget.take(heading), level: 2, ancestors: [], text });
  }
  return {
    title: core.title,
    openingHeading,
    date: core.date,
    tags: core.tags,
    sections,
    verbatim: false,
    truncated: budget.truncated || slides.length > limits.maxSlides,
  };
}

/** Relationship targets of a part, by id, resolved to archive paths. */
function relationships(zip: BoundedZip, partPath: string): { id: string; type: string; target: string }[] {
  const slash = partPath.lastIndexOf('/');
  const folder = partPath.slice(0, slash);
  const xml = zip.readText(`${folder}/_rels/${partPath.slice(slash + 1)}.rels`);
  if (xml === null) return [];
  const out: { id: string; type: string; target: string }[] = [];
  for (const match of xml.matchAll(/<Relationship\b([^>]*)\/?>/g)) {
    const attrs = match[1]!;
    const id = /\bId="([^"]*)"/.exec(attrs)?.[1];
    const type = /\bType="([^"]*)"/.exec(attrs)?.[1] ?? '';
    const target = /\bTarget="([^"]*)"/.exec(attrs)?.[1];
    if (id && target) out.push({ id, type, target: resolvePartPath(folder, target) });
  }
  return out;
}

function resolvePartPath(folder: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = folder.split('/');
  for (const piece of target.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.') parts.push(piece);
  }
  return parts.join('/');
}

function relatedPart(zip: BoundedZip, partPath: string, typeSuffix: string): string | null {
  return relationships(zip, partPath).find((rel) => rel.type.endsWith(typeSuffix))?.target ?? null;
}

/** Slide parts in the order presentation.xml lists them; slide files by number when it lists none. */
function slideOrder(zip: BoundedZip): string[] {
  const xml = zip.readText('ppt/presentation.xml') ?? '';
  const rels = new Map(relationships(zip, 'ppt/presentation.xml').map((rel) => [rel.id, rel.target]));
  const listed = [...xml.matchAll(/<p:sldId\b[^>]*\br:id="([^"]*)"/g)]
    .map((match) => rels.get(match[1]!))
    .filter((target): target is string => target !== undefined && zip.has(target));
  if (listed.length > 0) return listed;
  const number = (name: string) => Number(/(\d+)\.xml$/.exec(name)?.[1] ?? 0);
  return zip
    .names()
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => number(a) - number(b));
}

/** The title placeholder's text and the other shapes' paragraphs of one slide or notes part. */
function readShapes(xml: string, partPath: string): { title: string | null; body: string[] } {
  const parser = new SaxesParser();
  let title: string | null = null;
  const body: string[] = [];
  let shape: { placeholder: string | null; paragraphs: string[] } | null = null;
  let paragraph: string | null = null;
  let inText = false;
  let row: string[] | null = null;
  let cell: string[] | null = null;
  parser.on('opentag', (tag) => {
    switch (tag.name) {
      case 'p:sp':
        shape = { placeholder: null, paragraphs: [] };
        break;
      case 'p:ph':
        if (shape) shape.placeholder = String(tag.attributes.type ?? 'body');
        break;
      case 'a:tr':
        row = [];
        break;
      case 'a:tc':
        cell = [];
        break;
      case 'a:p':
        paragraph = '';
        break;
      case 'a:t':
        inText = true;
        break;
      case 'a:br':
        if (paragraph !== null) paragraph += '\n';
        break;
      case 'a:tab':
        if (paragraph !== null) paragraph += '\t';
        break;
    }
  });
  parser.on('text', (text) => {
    if (inText && paragraph !== null) paragraph += text;
  });
  parser.on('closetag', (tag) => {
    switch (tag.name) {
      case 'a:t':
        inText = false;
        break;
      case 'a:p': {
        const text = (paragraph ?? '').trim();
        paragraph = null;
        if (text === '') break;
        if (cell) cell.push(text);
        else if (shape) shape.paragraphs.push(text);
        break;
      }
      case 'a:tc':
        if (row && cell) row.push(cell.join(' '));
        cell = null;
        break;
      case 'a:tr':
        if (row?.some((value) => value !== '')) body.push(row.join(' | '));
        row = null;
        break;
      case 'p:sp': {
        const done = shape as { placeholder: string | null; paragraphs: string[] } | null;
        shape = null;
        if (!done || (done.placeholder && SKIPPED_PLACEHOLDERS.has(done.placeholder))) break;
        const isTitle = done.placeholder === 'title' || done.placeholder === 'ctrTitle';
        if (isTitle && title === null) title = done.paragraphs.join(' ');
        else body.push(...done.paragraphs);
        break;
      }
    }
  });
  try {
    parser.write(xml).close();
  } catch (error) {
    throw new ExtractRefusal('corrupt', `${partPath} is not well-formed XML (${(error as Error).message})`);
  }
  return { title, body };
}
