// `groove tune`: sweep the fusion parameters (rrf_k, bm25 column weights) against the golden set and recommend
// a [search.fusion] only when it survives nested leave-one-query-out; applies nothing.
import { checkReportPath, describeLegsDown, refuseDownLegs, writeReportFile } from '../app/index.js';
import { expandPath } from '../config/resolve-config.js';
import { EXIT, wantsColor } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import { renderTuneHtml } from './html-report/index.js';
import type { TuneFlags } from './measure-options.js';
import {
  renderNoEffectiveQueries,
  renderTuneEvent,
  renderTuneLegFailures,
  renderTuneText,
} from './render-tune.js';
import { tuneReportToJson } from './tune-json.js';
import { withKnowledgeBase } from './with-knowledge-base.js';

export async function run({ flags, io }: RunContext<TuneFlags>): Promise<number> {
  // tune measures the stage before reranking, so no reranker is loaded whatever groove.toml says.
  const reportPath = flags.report === undefined ? undefined : expandPath(flags.report, io.cwd);
  return withKnowledgeBase({ ...flags, reranker: 'none' }, io, 'read', async (kb) => {
    if (reportPath !== undefined) checkReportPath(reportPath, '--report');
    // Like eval: a leg that is down would make every grid point measure a different system.
    const probe = await kb.probeLegs();
    if (!flags.allowDegraded) refuseDownLegs(probe);
    else if (probe.down.length > 0) {
      io.stderr.write(
        `groove tune: warning: sweeping with a component down (--allow-degraded): ${describeLegsDown(probe.down)}\n`,
      );
    }
    const outcome = await kb.tune(
      {
        golden: flags.golden === undefined ? undefined : expandPath(flags.golden, io.cwd),
        kValues: flags.k,
        limit: flags.limit,
      },
      (event) => io.stderr.write(renderTuneEvent(event)),
    );
    if (outcome.kind === 'no-effective-queries') {
      io.stderr.write(renderNoEffectiveQueries(outcome));
      return EXIT.usage;
    }
    const { report } = outcome;
    if (flags.format === 'json') {
      io.stdout.write(`${JSON.stringify(tuneReportToJson(report), null, 2)}\n`);
    } else {
      const color = wantsColor(io, flags.color);
      io.stdout.write(renderTuneText(report, { color }));
    }
    io.stderr.write(renderTuneLegFailures(report));
    if (reportPath !== undefined) {
      writeReportFile(reportPath, renderTuneHtml(report));
      io.stderr.write(`groove tune: wrote the HTML report ${reportPath}\n`);
    }
    return EXIT.ok;
  });
}
