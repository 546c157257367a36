// `groove status`: what the index holds and how it was built.
import { Command } from 'commander';
import { openKnowledgeBase } from '../app/index.js';
import { type CliIo, EXIT } from './cli-io.js';
import { addFormatOption, addKbOptions, type CommonFlags, loadConfig } from './common-options.js';
import { renderStatus, statusJson } from './render-index.js';

export function statusCommand(io: CliIo, setExit: (code: number) => void): Command {
  const command = new Command('status')
    .description('show documents, chunks, model, context mode, index size and last index time')
    .addHelpText(
      'after',
      '\nExamples:\n  groove status --kb-path ./notes\n  groove status --kb-path ./notes --format json',
    );
  addKbOptions(command);
  addFormatOption(command);
  return command.action(async (flags: CommonFlags) => {
    const report = openKnowledgeBase(loadConfig(flags, io)).status();
    io.stdout.write(
      flags.format === 'json' ? `${JSON.stringify(statusJson(report))}\n` : renderStatus(report),
    );
    setExit(EXIT.ok);
  });
}
