// Runs one extraction job to an outcome: the extractor for the format, its refusals as data, any other throw
// from a parser library as a refusal of that one file. Loading a format's libraries is a step of its own, so the
// thread can start a job's deadline only once they are in (see extraction-pool.ts).
import type { Extraction } from '../../document/extracted-document.js';
import type { ExtractJob, ExtractOutcome } from './extract-job.js';
import { ExtractRefusal } from './extract-refusal.js';

type Extractor = (job: ExtractJob) => Promise<Extraction>;

/** Import the format's extractor and the libraries it needs (pdf.js, mammoth, exceljs, a grammar). */
export async function loadExtractor(job: ExtractJob): Promise<Extractor> {
  switch (job.format) {
    case 'pdf': {
      const pdf = await import('./extract-pdf.js');
      await pdf.preloadPdfJs();
      return (j) => pdf.extractPdf((j as { bytes: Uint8Array }).bytes, j.limits);
    }
    case 'docx': {
      const docx = await import('./extract-docx.js');
      return (j) => docx.extractDocx((j as { bytes: Uint8Array }).bytes, j.limits);
    }
    case 'xlsx': {
      const xlsx = await import('./extract-xlsx.js');
      return (j) => xlsx.extractXlsx((j as { bytes: Uint8Array }).bytes, j.limits);
    }
    case 'pptx': {
      const pptx = await import('./extract-pptx.js');
      return (j) => pptx.extractPptx((j as { bytes: Uint8Array }).bytes, j.limits);
    }
    case 'code': {
      const code = await import('./extract-code.js');
      await code.preloadGrammar(job.grammar);
      return (j) => {
        const c = j as Extract<ExtractJob, { format: 'code' }>;
        return code.extractCode(c.text, c.grammar, c.language, c.limits);
      };
    }
  }
}

/** Run a loaded extractor on its job; never throws. */
export async function runLoadedExtractor(extract: Extractor, job: ExtractJob): Promise<ExtractOutcome> {
  try {
    return { ok: true, extraction: await extract(job) };
  } catch (error) {
    if (error instanceof ExtractRefusal) return { ok: false, reason: error.reason, detail: error.detail };
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: 'corrupt', detail: `its parser failed (${message.slice(0, 300)})` };
  }
}

/** Load and run in one go (in-thread callers and tests). */
export async function runExtractJob(job: ExtractJob): Promise<ExtractOutcome> {
  let extract: Extractor;
  try {
    extract = await loadExtractor(job);
  } catch (error) {
    return { ok: false, reason: 'crashed', detail: `its parser could not be loaded (${String(error)})` };
  }
  return runLoadedExtractor(extract, job);
}
