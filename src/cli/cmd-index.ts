// `groove index`: build or update the index of a KB.
import type { IndexEvent } from '../app/index.js';
import { indexSummaryToJson } from '../app/index.js';
import { GrooveError } from '../errors.js';
import { type CliIo, EXIT } from './cli-io.js';
import type { IndexFlags } from './command-options.js';
import type { RunContext } from './command-spec.js';
import { createIndexProgress, finishProgress } from './index-progress.js';
import { renderEmbeddedLine, renderIndexEvent, renderIndexSummary } from './render-index.js';
import { withKnowledgeBase } from './with-knowledge-base.js';

/** The default mode prints this many per-file lines, then counts the rest (a vault can hold 100k files). */
export const FILE_LINES_SHOWN = 20;
/** And this many warnings (each skipped file is one); `groove doctor` lists the skipped files too. */
export const WARNING_LINES_SHOWN = 100;

export async function run({ flags, io }: RunContext<IndexFlags>): Promise<number> {
  const exclusive = [flags.quiet && '--quiet', flags.progress && '--progress', flags.verbose && '--verbose'];
  const chosen = exclusive.filter(Boolean);
  if (chosen.length > 1) {
    throw new GrooveError('INVALID_ARGUMENT', `${chosen.join(' and ')} cannot be used together`, {
      hint: 'pick one',
    });
  }
  return withKnowledgeBase(flags, io, 'write', async (kb) => {
    const printer = eventPrinter(io, flags);
    const summary = await kb.index({ force: flags.force, onEvent: printer.onEvent }).finally(() => {
      printer.finish();
      if (flags.progress) finishProgress((text) => io.stderr.write(text), Boolean(io.stderr.isTTY));
    });
    if (flags.format === 'json') io.stdout.write(`${JSON.stringify(indexSummaryToJson(summary))}\n`);
    else io.stdout.write(renderIndexSummary(summary));
    const failOnFrontmatter = kb.config.index.failOnFrontmatterError && summary.frontmatterErrors > 0;
    return failOnFrontmatter ? EXIT.failure : EXIT.ok;
  });
}

interface EventPrinter {
  onEvent(event: IndexEvent): void;
  /** Says how many lines the default mode left out. */
  finish(): void;
}

/**
 * The first per-file lines and warnings (default), every line (--verbose), warnings only (--quiet), or progress
 * bars (--progress); always on stderr.
 */
function eventPrinter(io: CliIo, flags: IndexFlags): EventPrinter {
  const write = (text: string) => io.stderr.write(text);
  if (flags.progress)
    return { onEvent: createIndexProgress(write, { tty: Boolean(io.stderr.isTTY) }), finish() {} };
  const capped = !flags.verbose;
  let lastTenth = -1;
  const shown = { files: 0, warnings: 0 };
  const hidden = { files: 0, warnings: 0 };
  const onEvent = (event: IndexEvent) => {
    if (event.kind === 'embedded') {
      const tenth = event.total === 0 ? 10 : Math.floor((event.done / event.total) * 10);
      if (!flags.quiet && tenth !== lastTenth) write(`${renderEmbeddedLine(event)}\n`);
      lastTenth = tenth;
      return;
    }
    const isWarning = event.kind === 'warning' || event.kind === 'skipped';
    if (flags.quiet && !isWarning) return;
    const line = renderIndexEvent(event);
    if (line === null) return;
    const isFile = event.kind === 'file' || event.kind === 'deleted';
    if (capped && isFile && shown.files >= FILE_LINES_SHOWN) hidden.files++;
    else if (capped && isWarning && !flags.quiet && shown.warnings >= WARNING_LINES_SHOWN) hidden.warnings++;
    else {
      if (isFile) shown.files++;
      if (isWarning) shown.warnings++;
      write(`${line}\n`);
    }
  };
  const finish = () => {
    const parts = [
      hidden.files > 0 ? `${hidden.files} more ${hidden.files === 1 ? 'file' : 'files'}` : '',
      hidden.warnings > 0 ? `${hidden.warnings} more ${hidden.warnings === 1 ? 'warning' : 'warnings'}` : '',
    ].filter(Boolean);
    if (parts.length > 0)
      write(`  … and ${parts.join(' and ')} (groove index --verbose prints every line)\n`);
  };
  return { onEvent, finish };
}
