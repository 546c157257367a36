// Runs one extraction job to an outcome: the extractor for the format, its refusals as data, any other throw
// from a parser library as a refusal of that one file.
import type { ExtractJob, ExtractOutcome } from './extract-job.js';
import { ExtractRefusal } from './extract-refusal.js';

export async function runExtractJob(job: ExtractJob): Promise<ExtractOutcome> {
  try {
    return { ok: true, extraction: await extractorFor(job) };
  } catch (error) {
    if (error instanceof ExtractRefusal) return { ok: false, reason: error.reason, detail: error.detail };
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: 'corrupt', detail: `its parser failed (${message.slice(0, 300)})` };
  }
}

async function extractorFor(job: ExtractJob) {
  switch (job.format) {
    case 'pdf':
      return (await import('./extract-pdf.js')).extractPdf(job.bytes, job.limits);
    case 'docx':
      return (await import('./extract-docx.js')).extractDocx(job.bytes, job.limits);
    case 'xlsx':
      return (await import('./extract-xlsx.js')).extractXlsx(job.bytes, job.limits);
    case 'pptx':
      return (await import('./extract-pptx.js')).extractPptx(job.bytes, job.limits);
    case 'code':
      return (await import('./extract-code.js')).extractCode(job.text, job.grammar, job.language, job.limits);
  }
}
