// `groove eval`: measure retrieval against a golden file, diff with the previous run, optionally gate CI.
import { Command, Option } from 'commander';
import { evalReportToJson, openKnowledgeBase } from '../app/index.js';
import { expandPath } from '../config/resolve-config.js';
import { type CliIo, EXIT } from './cli-io.js';
import { evalGoldenCommand } from './cmd-eval-golden.js';
import { addKbOptions, addModelOptions, type CommonFlags, loadConfig } from './common-options.js';
import { MAX_CUTOFF, parseBoundedInt, parseKList, usageError } from './flag-parsers.js';
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
  mmr?: boolean;
  mmrLambda?: number;
  mmrSameDocPenalty?: number;
  parentRetriever?: boolean;
}

const invalid = (message: string) => usageError('eval', message);

function parseRows(value: string): string[] {
  const rows = value.split(',').map((s) => s.trim());
  if (rows.some((s) => s === ''))
    throw invalid(`--rows "${value}" must be a comma-separated list like core,rerank`);
  return rows;
}

function parseUnit(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
      throw invalid(`${flag} "${value}" must be a number from 0 to 1`);
    }
    return n;
  };
}

function parseBool(flag: string) {
  return (value: string): boolean => {
    if (/^(true|1|yes|on)$/i.test(value)) return true;
    if (/^(false|0|no|off)$/i.test(value)) return false;
    throw invalid(`${flag} "${value}" must be true or false`);
  };
}

export function evalCommand(io: CliIo, setExit: (code: number) => void): Command {
  const command = new Command('eval')
    // `groove eval golden stamp --golden x`: options after the subcommand are the subcommand's.
    .enablePositionalOptions()
    .description('measure retrieval quality against a golden file and diff with the previous run')
    .option('--golden <path>', 'golden YAML (default: [eval] golden, then <kb>/.groove-eval.yml)')
    .option('--reranker <id>', 'cross-encoder to measure with, or `none` (rerank_by_default is ignored)')
    .option(
      '--k <list>',
      'k values for recall@k and nDCG@k (default: [eval] k_values or 1,5,10)',
      parseKList('eval'),
    )
    .option(
      '--limit <n>',
      'results fetched per query (default: the largest k; at most 1000)',
      parseBoundedInt('eval', '--limit', MAX_CUTOFF),
    )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--no-history', 'neither read nor write <kb>/.groove-eval-history.json')
    .option('--no-diff', 'do not compare with the previous run (the run is still recorded)')
    .option('--no-color', 'no ANSI colours (they are only used on a terminal anyway)')
    .option(
      '--fail-on-regression',
      'exit 1 when an aggregate metric fell by more than [eval] regression_threshold',
    )
    .option(
      '--fail-on-significant-regression',
      'exit 1 only when the paired 95% interval of a metric lies entirely below zero',
    )
    .option(
      '--compare <run-id|path>',
      'baseline: a history run (its timestamp or a prefix) or a --format json file',
    )
    .option(
      '--rows <list>',
      'measure several pipelines in one run, e.g. core,rerank,mmr,parent (first decides)',
      parseRows,
    )
    .option('--allow-degraded', 'measure even when a retrieval leg is down (the run is recorded as degraded)')
    .option('--allow-stale-golden', 'measure even when the golden sidecar is past [eval] max_golden_age_days')
    .option('--mmr [bool]', 'diversify results with MMR (same as on `groove search`)', parseBool('--mmr'))
    .option('--no-mmr', 'turn MMR off even when [search.mmr] enables it')
    .option('--mmr-lambda <0..1>', 'MMR relevance/diversity trade-off', parseUnit('--mmr-lambda'))
    .option(
      '--mmr-same-doc-penalty <0..1>',
      'MMR penalty for a second chunk of one document',
      parseUnit('--mmr-same-doc-penalty'),
    )
    .option(
      '--parent-retriever [bool]',
      'expand short hits to their document or neighbours',
      parseBool('--parent-retriever'),
    )
    .option('--no-parent-retriever', 'turn the parent retriever off')
    .addHelpText(
      'after',
      '\nExamples:\n  groove eval --kb-path ./notes\n  groove eval --kb-path ./notes --golden ci-golden.yml --k 1,3,10 --format json\n  groove eval --kb-path ./notes --fail-on-regression   # CI gate: exit 1 on a regression\n  groove eval --kb-path ./notes --rows core,rerank --reranker bge-reranker-v2-m3\n  groove eval golden build --from-feedback --kb-path ./notes\n\nExit codes: 0 ok, 1 regression (with a --fail-on-* gate) or error, 2 bad usage,\n3 refused to measure (a component is down, or the golden set is stale).',
    );
  command.addCommand(evalGoldenCommand(io, setExit));
  addKbOptions(command);
  addModelOptions(command);
  return command.action(async (flags: EvalFlags) => {
    const config = loadConfig(flags, io);
    const kb = openKnowledgeBase(config);
    try {
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
        mmr: flags.mmr,
        mmrLambda: flags.mmrLambda,
        mmrSameDocPenalty: flags.mmrSameDocPenalty,
        parentRetriever: flags.parentRetriever,
      });
      if (flags.format === 'json') {
        io.stdout.write(`${JSON.stringify(evalReportToJson(report), null, 2)}\n`);
      } else {
        const color = Boolean(io.stdout.isTTY) && flags.color !== false && !io.env.NO_COLOR;
        io.stdout.write(renderEvalRowsText(report, { color }));
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
      setExit(regressed ? EXIT.failure : EXIT.ok);
    } finally {
      await kb.close();
    }
  });
}
