// `groove index`: build or update the index of a KB.
import type { IndexEvent } from '../app/index.js';
import { indexSummaryToJson, openKnowledgeBase } from '../app/index.js';
import { GrooveError } from '../errors.js';
import { type CliIo, EXIT } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import { type CommonFlags, loadConfig } from './common-options.js';
import { renderIndexEvent, renderIndexSummary, renderProgress } from './render-index.js';

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
    const summary = await kb.index({ force: flags.force, onEvent: eventPrinter(io, flags) });
    if (flags.format === 'json') io.stdout.write(`${JSON.stringify(indexSummaryToJson(summary))}\n`);
    else io.stdout.write(renderIndexSummary(summary));
    const failOnFrontmatter = kb.config.index.failOnFrontmatterError && summary.frontmatterErrors > 0;
    return failOnFrontmatter ? EXIT.failure : EXIT.ok;
  } finally {
    await kb.close();
  }
}

/** Per-file lines (default), warnings only (--quiet), or progress (--progress); always on stderr. */
function eventPrinter(io: CliIo, flags: IndexFlags): (event: IndexEvent) => void {
  let total = 0;
  let done = 0;
  let lastStep = -1;
  const onTty = Boolean(io.stderr.isTTY);
  return (event) => {
    if (event.kind === 'start') total = event.totalFiles;
    if (event.kind === 'file' || event.kind === 'unchanged' || event.kind === 'skipped') done++;
    const isWarning = event.kind === 'warning' || event.kind === 'skipped';
    if (flags.progress) {
      if (isWarning) io.stderr.write(`${onTty ? '\n' : ''}${renderIndexEvent(event)}\n`);
      const step = total === 0 ? 20 : Math.floor((done / total) * 20);
      if (onTty) io.stderr.write(`\r${renderProgress(done, total)}`);
      else if (step !== lastStep) io.stderr.write(`${renderProgress(done, total)}\n`);
      lastStep = step;
      return;
    }
    if (flags.quiet && !isWarning) return;
    const line = renderIndexEvent(event);
    if (line !== null) io.stderr.write(`${line}\n`);
  };
}
