// `groove tune`: sweep the fusion parameters (rrf_k, bm25 column weights) against the golden set and recommend
// a [search.fusion] only when it survives nested leave-one-query-out; applies nothing.
import { Command, Option } from 'commander';
import { describeLegsDown, openKnowledgeBase, refuseDownLegs } from '../app/index.js';
import { expandPath } from '../config/resolve-config.js';
import { type CliIo, EXIT } from './cli-io.js';
import { addKbOptions, addModelOptions, type CommonFlags, loadConfig } from './common-options.js';
import { MAX_TUNE_LIMIT, parseBoundedInt, parseKList } from './flag-parsers.js';
import {
  renderNoEffectiveQueries,
  renderTuneEvent,
  renderTuneLegFailures,
  renderTuneText,
  tuneReportToJson,
} from './render-tune.js';

interface TuneFlags extends CommonFlags {
  golden?: string;
  k?: number[];
  limit?: number;
  color: boolean;
  allowDegraded?: boolean;
}

export function tuneCommand(io: CliIo, setExit: (code: number) => void): Command {
  const command = new Command('tune')
    .description(
      'measure whether rrf_k and the bm25 column weights can move retrieval on this KB (plain RRF stage, no reranker)',
    )
    .option('--golden <path>', 'golden YAML (default: [eval] golden, then <kb>/.groove-eval.yml)')
    .option(
      '--k <list>',
      'k values for recall@k (default: [eval] k_values or 1,5,10; 5 is always added)',
      parseKList('tune'),
    )
    .option(
      '--limit <n>',
      'hits scored per query (default and floor: the largest k; at most 10000)',
      parseBoundedInt('tune', '--limit', MAX_TUNE_LIMIT),
    )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--no-color', 'no ANSI colours (they are only used on a terminal anyway)')
    .option('--allow-degraded', 'sweep even when a retrieval leg fails the probe sent first')
    .addHelpText(
      'after',
      '\nExamples:\n  groove tune --kb-path ./notes\n  groove tune --kb-path ./notes --format json > tune.json\n  groove tune --kb-path ./notes --golden ci-golden.yml --limit 20\n\n' +
        'tune applies nothing: it prints a paste-ready [search.fusion] snippet or says to keep the defaults.\n' +
        'Exit codes: 0 either verdict, 1 error, 2 bad usage or no measurable golden query (effective N = 0),\n' +
        '3 a retrieval leg is down (the probe sent before sweeping failed; --allow-degraded sweeps anyway).',
    );
  addKbOptions(command);
  addModelOptions(command);
  return command.action(async (flags: TuneFlags) => {
    // tune measures the stage before reranking, so no reranker is loaded whatever groove.toml says.
    const config = loadConfig({ ...flags, reranker: 'none' }, io);
    const kb = openKnowledgeBase(config);
    try {
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
        setExit(EXIT.usage);
        return;
      }
      const { report } = outcome;
      if (flags.format === 'json') {
        io.stdout.write(`${JSON.stringify(tuneReportToJson(report), null, 2)}\n`);
      } else {
        const color = Boolean(io.stdout.isTTY) && flags.color !== false && !io.env.NO_COLOR;
        io.stdout.write(renderTuneText(report, { color }));
      }
      io.stderr.write(renderTuneLegFailures(report));
      setExit(EXIT.ok);
    } finally {
      await kb.close();
    }
  });
}
