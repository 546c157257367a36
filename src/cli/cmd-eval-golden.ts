// `groove eval golden build --from-feedback` and `groove eval golden stamp`: make a golden set from recorded
// agent judgments, or date a hand-written one, writing the sidecar eval's age and drift checks read.
import { Command, Option } from 'commander';
import { openKnowledgeBase } from '../app/index.js';
import { expandPath } from '../config/resolve-config.js';
import { GrooveError } from '../errors.js';
import { type CliIo, EXIT } from './cli-io.js';
import { addKbOptions, type CommonFlags, loadConfig } from './common-options.js';
import {
  goldenBuildToJson,
  goldenStampToJson,
  renderGoldenBuildText,
  renderGoldenStampText,
} from './render-golden.js';

interface BuildFlags extends CommonFlags {
  fromFeedback?: boolean;
  out?: string;
}

interface StampFlags extends CommonFlags {
  golden?: string;
}

/** Subcommands added with addCommand inherit nothing, so each gets the CLI's output and exit handling here. */
function wire(command: Command, io: CliIo): Command {
  return command
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
}

const formatOption = () =>
  new Option('--format <format>', 'output format').choices(['text', 'json']).default('text');

export function evalGoldenCommand(io: CliIo, setExit: (code: number) => void): Command {
  const build = new Command('build')
    .description(
      'write a golden set (and its sidecar) from the judgments agents recorded with record_feedback',
    )
    .option('--from-feedback', 'build from the feedback stored in the index (the only source so far)')
    .option('--out <path>', 'where to write the golden YAML (default: the golden file eval reads)')
    .addOption(formatOption());
  addKbOptions(build);
  build.action(async (flags: BuildFlags) => {
    if (!flags.fromFeedback) {
      throw new GrooveError('INVALID_ARGUMENT', 'golden build needs a source', {
        hint: 'pass --from-feedback (judgments recorded through the MCP tool record_feedback)',
      });
    }
    const kb = openKnowledgeBase(loadConfig(flags, io));
    try {
      const result = await kb.buildGolden({
        out: flags.out === undefined ? undefined : expandPath(flags.out, io.cwd),
      });
      io.stdout.write(
        flags.format === 'json'
          ? `${JSON.stringify(goldenBuildToJson(result), null, 2)}\n`
          : renderGoldenBuildText(result),
      );
      if (!result.written) {
        io.stderr.write(
          'groove eval golden build: no query survived the filters, nothing written (record more feedback with at least one `helped` item per task)\n',
        );
      }
      setExit(result.written ? EXIT.ok : EXIT.failure);
    } finally {
      await kb.close();
    }
  });

  const stamp = new Command('stamp')
    .description('date the golden set against the index as it is now (writes <golden>.meta.yml)')
    .option('--golden <path>', 'golden YAML (default: [eval] golden, then <kb>/.groove-eval.yml)')
    .addOption(formatOption());
  addKbOptions(stamp);
  stamp.action(async (flags: StampFlags) => {
    const kb = openKnowledgeBase(loadConfig(flags, io));
    try {
      const result = await kb.stampGolden({
        golden: flags.golden === undefined ? undefined : expandPath(flags.golden, io.cwd),
      });
      io.stdout.write(
        flags.format === 'json'
          ? `${JSON.stringify(goldenStampToJson(result), null, 2)}\n`
          : renderGoldenStampText(result),
      );
      setExit(EXIT.ok);
    } finally {
      await kb.close();
    }
  });

  const golden = wire(
    new Command('golden')
      .enablePositionalOptions()
      .description('make golden sets: build from feedback, or stamp'),
    io,
  );
  golden.addCommand(wire(build, io));
  golden.addCommand(wire(stamp, io));
  return golden;
}
