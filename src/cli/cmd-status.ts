// `groove status`: what the index holds and how it was built.
import { openKnowledgeBase, statusReportToJson } from '../app/index.js';
import { EXIT } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import { type CommonFlags, loadConfig } from './common-options.js';
import { renderStatus } from './render-index.js';

export async function run({ flags, io }: RunContext<CommonFlags>): Promise<number> {
  const kb = openKnowledgeBase(loadConfig(flags, io));
  let report: Awaited<ReturnType<typeof kb.describe>>;
  try {
    report = await kb.describe();
  } finally {
    await kb.close();
  }
  io.stdout.write(
    flags.format === 'json' ? `${JSON.stringify(statusReportToJson(report))}\n` : renderStatus(report),
  );
  return EXIT.ok;
}
