// The request the extraction process serves and the caps it enforces (plain data: it crosses the thread boundary).
import type { BinaryFormat } from '../../document/document-formats.js';
import type { Extraction } from '../../document/extracted-document.js';
import type { ExtractRefusalReason } from './extract-refusal.js';

export interface ExtractionLimits {
  /** Wall-clock deadline per file; the extraction process is stopped when it passes. */
  timeoutMs: number;
  /** RSS the extraction process may reach (heap, native and WebAssembly memory); past it the process is stopped. */
  maxMemoryBytes: number;
  /** Decompressed bytes of one OOXML archive; also the bytes of temp files one extraction may write. */
  maxDecompressedBytes: number;
  /** Entries in one OOXML archive. */
  maxZipEntries: number;
  maxPages: number;
  maxSheets: number;
  /** Non-empty cells read per sheet; the rest of the sheet is left out. */
  maxCellsPerSheet: number;
  maxSlides: number;
  /** Characters of text kept per file; the rest is left out. */
  maxTextChars: number;
  /** `[chunking] max_chunk_bytes`: the size a sheet's row block and a code definition are bounded by. */
  chunkBytes: number;
  /** `[chunking] max_heading_level`: deeper Word headings are body text, as in Markdown. */
  maxHeadingLevel: number;
}

export type ExtractJob =
  | { format: BinaryFormat; bytes: Uint8Array; limits: ExtractionLimits }
  | { format: 'code'; text: string; grammar: string; language: string; limits: ExtractionLimits };

export type ExtractOutcome =
  | { ok: true; extraction: Extraction }
  | { ok: false; reason: ExtractRefusalReason; detail: string };

/** Keeps the characters of one file under maxTextChars; what does not fit marks the extraction truncated. */
export class TextBudget {
  truncated = false;
  private remaining: number;

  constructor(maxChars: number) {
    this.remaining = maxChars;
  }

  get exhausted(): boolean {
    return this.remaining <= 0;
  }

  /** The part of `text` that still fits. */
  take(text: string): string {
    if (text.length <= this.remaining) {
      this.remaining -= text.length;
      return text;
    }
    this.truncated = true;
    const kept = text.slice(0, Math.max(0, this.remaining));
    this.remaining = 0;
    return kept;
  }
}
