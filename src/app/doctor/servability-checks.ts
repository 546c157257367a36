// The servability checks: whether what surrounds the index lets it be served and measured — the model it was
// built with, the writer lock, the golden set's sidecar — which files the last run refused, and which links in the
// notes name a note that is not indexed.

import { isNoTextSkip } from '../../document/no-text-skip.js';
import { formatDrift } from '../../measure/golden-freshness.js';
import { type DoctorCheck, hasTables, NOT_APPLICABLE, plural, SAMPLE_LIMIT } from './doctor-report.js';

const GOLDEN_REMEDY =
  'rebuild it (groove eval golden build --from-feedback), or re-check its answers and run groove eval golden stamp';

export const SERVABILITY_CHECKS: readonly DoctorCheck[] = [
  {
    check: 'model-files-missing',
    severity: 'error',
    meaning:
      "the index's model is not in the model cache, or its `--model-dir` folder is gone or damaged (serve refuses to start, searches lose the vector leg)",
    remedy: 'groove models pull <id>',
    inspect({ identity, model }) {
      if (identity === null || identity.provider !== 'transformers') return NOT_APPLICABLE;
      if (model === null) return null;
      return {
        count: 1,
        summary: `the index's model cannot be loaded, so serve refuses to start and searches have no vector leg: ${model.problem}`,
        samples: model.folder ? [model.folder] : [],
        remedy: model.remedy,
      };
    },
  },
  {
    check: 'stale-writer-lock',
    severity: 'warning',
    meaning: '`<db>.lock` names a dead or reused pid, predates a reboot, or names no process',
    remedy: 'nothing is needed: the next groove index takes it over (or delete the lock file)',
    inspect({ lock, dbPath }) {
      if (lock.kind !== 'stale') return null;
      const names = lock.owner ? `names process ${lock.owner.pid}, but ` : '';
      return { count: 1, summary: `the writer lock ${names}${lock.reason}`, samples: [`${dbPath}.lock`] };
    },
  },
  {
    check: 'writer-lock-other-host',
    severity: 'warning',
    meaning: '`<db>.lock` was written on another host; writes are refused while it stays',
    remedy: 'if no groove runs on that host, delete the lock file',
    inspect({ lock, dbPath }) {
      if (lock.kind !== 'other-host') return null;
      return {
        count: 1,
        summary: `the writer lock names process ${lock.owner.pid} on host "${lock.owner.host}"; groove cannot check it from here, so every write is refused while the lock stays`,
        samples: [`${dbPath}.lock`],
      };
    },
  },
  {
    check: 'golden-sidecar-invalid',
    severity: 'warning',
    meaning: 'eval cannot read the golden sidecar',
    remedy: 'rewrite it with groove eval golden stamp, or delete it',
    inspect({ golden }) {
      if (golden.kind === 'none') return NOT_APPLICABLE;
      if (golden.kind !== 'invalid') return null;
      return {
        count: 1,
        summary: `eval cannot read the golden sidecar: ${golden.message}`,
        remedy: golden.remedy,
      };
    },
  },
  {
    check: 'golden-stale',
    severity: 'warning',
    meaning: 'the golden set is older than `[eval] max_golden_age_days` (eval refuses it)',
    remedy: GOLDEN_REMEDY,
    inspect({ golden }) {
      if (golden.kind !== 'sidecar') return NOT_APPLICABLE;
      const { freshness, goldenPath } = golden;
      if (!freshness.stale) return null;
      return {
        count: 1,
        summary: `the golden set is ${Math.floor(freshness.ageDays)} days old (created ${freshness.meta.created}; [eval] max_golden_age_days = ${freshness.maxAgeDays}): eval refuses it`,
        samples: [goldenPath],
      };
    },
  },
  {
    check: 'golden-drifted',
    severity: 'warning',
    meaning: 'the corpus moved more than `[eval] golden_drift_warn` since the set was judged',
    remedy: GOLDEN_REMEDY,
    inspect({ golden }) {
      if (golden.kind !== 'sidecar') return NOT_APPLICABLE;
      const { freshness, goldenPath } = golden;
      const drift = freshness.drift;
      if (drift === null || !drift.drifted) return null;
      const { atCreation, now } = drift;
      return {
        count: 1,
        summary: `the corpus moved ${formatDrift(drift.change)} since the golden set was judged (documents ${atCreation.documents} → ${now.documents}, chunks ${atCreation.chunks} → ${now.chunks}; [eval] golden_drift_warn = ${drift.warnAbove}): eval warns its numbers may not compare`,
        samples: [goldenPath],
      };
    },
  },
  {
    check: 'parser-not-enabled',
    severity: 'warning',
    meaning:
      'indexed documents whose extension no enabled parser claims (`[parsers] enabled` or `[parsers.code] languages` was narrowed): get_document refuses them and the next `groove index` deletes them',
    remedy:
      'add the parser back to [parsers] enabled (or the language to [parsers.code] languages), or run groove index to drop these documents',
    inspect({ reader, tables, servedExtensions }) {
      if (!tables.has('documents')) return NOT_APPLICABLE;
      const served = new Set(servedExtensions.map((ext) => ext.toLowerCase()));
      const unclaimed = reader.documentPaths().filter((path) => !served.has(extensionOf(path)));
      if (unclaimed.length === 0) return null;
      return {
        count: unclaimed.length,
        summary: `${plural(unclaimed.length, 'indexed document')} no enabled parser claims: searches still find them, get_document refuses them, and the next groove index deletes them`,
        samples: unclaimed.slice(0, SAMPLE_LIMIT),
      };
    },
  },
  {
    check: 'skipped-files',
    severity: 'warning',
    meaning:
      'files the last `groove index` refused (binary, too large, unreadable, no text layer, password-protected, zip bomb, extraction deadline…), each with its reason and whether an earlier version is still indexed',
    remedy:
      'each reason says why; fix or remove the file and run groove index again (groove index prints every refusal)',
    inspect({ reader }) {
      const record = reader.skippedFiles();
      if (record === null) return NOT_APPLICABLE;
      const refused = record.files.filter((file) => !isNoTextSkip(file));
      // Files past the record's list are counted as refusals: their reasons are not kept.
      const count = refused.length + (record.total - record.files.length);
      if (count === 0) return null;
      const samples = refused
        .slice(0, SAMPLE_LIMIT)
        .map((file) =>
          reader.isIndexed(file.path) ? `${file.reason}; its earlier version is still indexed` : file.reason,
        );
      return {
        count,
        summary: `the last index run refused ${plural(count, 'file')}: searches do not find their current text`,
        samples,
      };
    },
  },
  {
    check: 'empty-files',
    severity: 'info',
    meaning:
      'files the last `groove index` skipped because they hold no text (empty, blank, frontmatter only, an empty `.docx`); does not fail doctor',
    remedy:
      'nothing is needed; write text into the file, or ignore it in .grooveignore to keep it out of the walk',
    inspect({ reader }) {
      const record = reader.skippedFiles();
      if (record === null) return NOT_APPLICABLE;
      const empty = record.files.filter(isNoTextSkip);
      if (empty.length === 0) return null;
      return {
        count: empty.length,
        summary: `${plural(empty.length, 'file')} with no text to index (empty, blank or frontmatter only): nothing in them to find`,
        samples: empty.slice(0, SAMPLE_LIMIT).map((file) => file.path),
      };
    },
  },
  {
    check: 'links-dangling',
    severity: 'info',
    meaning:
      'links in the notes to a note that is not indexed (`source → target as written`); attachments are not counted; does not fail doctor',
    remedy:
      'write the missing note, fix the link, or leave it (a link to a note not yet written is common); a link to an attachment (an image, a PDF) is not counted',
    inspect(context) {
      if (!hasTables(context, 'links', 'document_names', 'documents')) return NOT_APPLICABLE;
      const breaks = context.reader.danglingLinks(context.noteExtensions);
      if (breaks.count === 0) return null;
      return {
        count: breaks.count,
        summary: `${plural(breaks.count, 'link')} in the notes to a note that is not indexed (the graph cannot follow them)`,
        samples: breaks.samples,
      };
    },
  },
];

function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}
