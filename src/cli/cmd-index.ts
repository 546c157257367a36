// `groove index`: build or update the index of a KB.
import type { IndexEvent } from '../app/index.js';
import { indexSummaryToJson, openKnowledgeBase } from '../app/index.js';
import { GrooveError } from '../errors.js';
import { type CliIo, EXIT } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import { type CommonFlags, loadConfig } from './common-options.js';
import { createIndexProgress, finishProgress } from './index-progress.js';
import { renderEmbeddedLine, renderIndexEvent, renderIndexSummary } from './render-index.js';

interface IndexFlags extends CommonFlags {
  force?: boolean;
  quiet?: boolean;
  progress?: boolean;
}

export async function run({ flags, io }: RunContext<IndexFlags>): Promise<number> {
  if (flags.quiet && flags.progress) {
    throw new GrooveError('INVALID_ARGUMENT', '--quiet and --progress cannot be used together', {
      hint: 'pick one',
    });
  }
  const kb = openKnowledgeBase(loadConfig(flags, io));
  try {
    const summary = await kb.index({ force: flags.force, onEvent: eventPrinter(io, flags) }).finally(() => {
      if (flags.progress) finishProgress((text) => io.stderr.write(text), Boolean(io.stderr.isTTY));
    });
    if (flags.format === 'json') io.stdout.write(`${JSON.stringify(indexSummaryToJson(summary))}\n`);
    else io.stdout.write(renderIndexSummary(summary));
    const failOnFrontmatter = kb.config.index.failOnFrontmatterError && summary.frontmatterErrors > 0;
    return failOnFrontmatter ? EXIT.failure : EXIT.ok;
  } finally {
    await kb.close();
  }
}

/** Per-file lines (default), warnings only (--quiet), or progress bars (--progress); always on stderr. */
function eventPrinter(io: CliIo, flags: IndexFlags): (event: IndexEvent) => void {
  const write = (text: string) => io.stderr.write(text);
  if (flags.progress) return createIndexProgress(write, { tty: Boolean(io.stderr.isTTY) });
  let lastTenth = -1;
  return (event) => {
    if (event.kind === 'embedded') {
      const tenth = event.total === 0 ? 10 : Math.floor((event.done / event.total) * 10);
      if (!flags.quiet && tenth !== lastTenth) write(`${renderEmbeddedLine(event)}\n`);
      lastTenth = tenth;
      return;
    }
    const isWarning = event.kind === 'warning' || event.kind === 'skipped';
    if (flags.quiet && !isWarning) return;
    const line = renderIndexEvent(event);
    if (line !== null) write(`${line}\n`);
  };
}
