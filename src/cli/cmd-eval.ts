// `groove eval`: measure retrieval against a golden file, diff with the previous run, optionally gate CI.
import { evalReportToJson, openKnowledgeBase } from '../app/index.js';
import { expandPath } from '../config/resolve-config.js';
import type { SearchRequest } from '../config/search-params.js';
import { EXIT, wantsColor } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import { type CommonFlags, loadConfig } from './common-options.js';
import { renderEvalHtml } from './html-report/index.js';
import { renderAblationText } from './render-ablation.js';
import { renderEvalDiagnostics, renderEvalRowsText, renderGate, renderQuoteFindings } from './render-eval.js';
import { renderIntegrityDiagnostics, renderSignificantGate } from './render-integrity.js';

interface EvalFlags extends CommonFlags {
  golden?: string;
  reranker?: string;
  k?: number[];
  limit?: number;
  history: boolean;
  diff: boolean;
  color: boolean;
  failOnRegression?: boolean;
  failOnSignificantRegression?: boolean;
  allowDegraded?: boolean;
  allowStaleGolden?: boolean;
  compare?: string;
  rows?: string[];
  ablate?: boolean;
  mmr?: boolean;
  mmrLambda?: number;
  mmrSameDocPenalty?: number;
  parentRetriever?: boolean;
  fold?: SearchRequest['fold'];
  trecRun?: string;
  trecQrels?: string;
  report?: string;
}

export async function run({ flags, io }: RunContext<EvalFlags>): Promise<number> {
  const config = loadConfig(flags, io);
  const kb = openKnowledgeBase(config, { readOnly: true });
  const reportPath = flags.report === undefined ? undefined : expandPath(flags.report, io.cwd);
  try {
    if (reportPath !== undefined) kb.checkReportTarget(reportPath, '--report');
    const report = await kb.evaluate({
      golden: flags.golden === undefined ? undefined : expandPath(flags.golden, io.cwd),
      kValues: flags.k,
      limit: flags.limit,
      history: flags.history,
      diff: flags.diff,
      failOnRegression: flags.failOnRegression,
      failOnSignificantRegression: flags.failOnSignificantRegression,
      allowDegraded: flags.allowDegraded,
      allowStaleGolden: flags.allowStaleGolden,
      compare:
        flags.compare === undefined
          ? undefined
          : { id: flags.compare, path: expandPath(flags.compare, io.cwd) },
      rows: flags.rows,
      ablate: flags.ablate,
      mmr: flags.mmr,
      mmrLambda: flags.mmrLambda,
      mmrSameDocPenalty: flags.mmrSameDocPenalty,
      parentRetriever: flags.parentRetriever,
      fold: flags.fold,
    });
    if (flags.format === 'json') {
      io.stdout.write(`${JSON.stringify(evalReportToJson(report), null, 2)}\n`);
    } else {
      const color = wantsColor(io, flags.color);
      io.stdout.write(renderEvalRowsText(report, { color }));
      io.stdout.write(renderAblationText(report));
    }
    const trec = kb.exportTrec(report, {
      run: flags.trecRun === undefined ? undefined : expandPath(flags.trecRun, io.cwd),
      qrels: flags.trecQrels === undefined ? undefined : expandPath(flags.trecQrels, io.cwd),
    });
    for (const written of trec) io.stderr.write(`groove eval: wrote ${written}\n`);
    if (reportPath !== undefined) {
      kb.writeReport(reportPath, renderEvalHtml(report));
      io.stderr.write(`groove eval: wrote the HTML report ${reportPath}\n`);
    }
    io.stderr.write(renderIntegrityDiagnostics(report));
    io.stderr.write(renderEvalDiagnostics(report));
    io.stderr.write(renderQuoteFindings(report.run.findings));
    // The history is written before the gate exits, so this run is the next run's baseline.
    const written = await kb.recordEvalRun(report);
    if (written?.warning) io.stderr.write(`groove eval: warning: ${written.warning}\n`);
    io.stderr.write(renderGate(report));
    io.stderr.write(renderSignificantGate(report));
    const regressed = report.gate.state === 'regressed' || report.significantGate.state === 'regressed';
    return regressed ? EXIT.failure : EXIT.ok;
  } finally {
    await kb.close();
  }
}
