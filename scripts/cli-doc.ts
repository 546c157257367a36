// The command reference of docs/cli.md, rendered from the command specs (src/cli/commands.ts and the files it
// gathers), and the splice that puts it between the reference's marker comments.
import type { ArgumentSpec, CommandSpec, OptionSpec } from '../src/cli/command-spec.js';
import { COMMANDS } from '../src/cli/commands.js';

export const REFERENCE_START =
  '<!-- cli-reference:start (generated from src/cli/commands.ts by `npm run docs:cli`; do not edit by hand) -->';
export const REFERENCE_END = '<!-- cli-reference:end -->';

/**
 * The hand-written page (in docs/) that explains a command beyond its flags, by the command's words.
 */
export const COMMAND_GUIDES: Readonly<Record<string, string>> = {
  kb: 'kbs.md',
  index: 'indexing.md',
  search: 'search.md',
  status: 'search.md#groove-status',
  doctor: 'doctor.md',
  serve: 'serve.md',
  graph: 'search.md#groove-graph',
  validate: 'validate.md',
  eval: 'eval.md',
  'eval golden': 'eval.md',
  tune: 'tune.md',
  models: 'models.md',
  service: 'serve.md#groove-service',
};

/** Markdown text outside code spans: `<`, `>` and `|` escaped so that a table cell or paragraph keeps them. */
export function inline(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) =>
      i % 2 === 1
        ? part.replace(/\|/g, '\\|')
        : part.replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|'),
    )
    .join('');
}

const code = (text: string) => `\`${text.replace(/\|/g, '\\|')}\``;

function argumentsOf(spec: CommandSpec): readonly ArgumentSpec[] {
  return spec.argument === undefined ? [] : [spec.argument].flat();
}

function synopsis(words: readonly string[], spec: CommandSpec): string {
  const parts = ['groove', ...words];
  if (spec.subcommands?.length && !spec.load) parts.push('<command>');
  if (spec.options?.length) parts.push('[options]');
  for (const argument of argumentsOf(spec)) parts.push(argument.syntax);
  if (spec.subcommands?.length && spec.load) parts.push(`| groove ${words.join(' ')} <command> …`);
  return parts.join(' ');
}

function optionCell(option: OptionSpec): string {
  const facts: string[] = [];
  if (option.choices) facts.push(`one of ${option.choices.map(code).join(', ')}`);
  if (option.default !== undefined) facts.push(`default ${code(String(option.default))}`);
  const text = inline(option.description);
  return facts.length === 0 ? text : `${text} (${facts.join('; ')})`;
}

/** The help text after the options: paragraphs as text, `Examples:` blocks as shell code. */
function helpBlocks(help: string): string[] {
  const blocks: string[] = [];
  for (const paragraph of help.trim().split(/\n\s*\n/)) {
    const lines = paragraph.split('\n');
    if (lines[0]!.trim() === 'Examples:') {
      blocks.push('Examples:', ['```sh', ...lines.slice(1).map((line) => line.trim()), '```'].join('\n'));
    } else {
      blocks.push(lines.map((line) => inline(line.trim())).join('\n'));
    }
  }
  return blocks;
}

function renderCommand(words: readonly string[], spec: CommandSpec): string[] {
  const heading = '#'.repeat(Math.min(2 + words.length - 1, 6));
  const out = [
    `${heading} \`groove ${words.join(' ')}\``,
    inline(spec.description),
    ['```text', synopsis(words, spec), '```'].join('\n'),
  ];
  const positional = argumentsOf(spec);
  if (positional.length > 0) {
    out.push(
      [
        '| argument | description |',
        '|---|---|',
        ...positional.map((a) => `| ${code(a.syntax)} | ${inline(a.description)} |`),
      ].join('\n'),
    );
  }
  if (spec.options?.length) {
    out.push(
      [
        '| option | description |',
        '|---|---|',
        ...spec.options.map((o) => `| ${code(o.flags)} | ${optionCell(o)} |`),
      ].join('\n'),
    );
  }
  if (spec.subcommands?.length) {
    const names = spec.subcommands.map((sub) => `[\`${sub.name}\`](#${anchor([...words, sub.name])})`);
    out.push(`Subcommands: ${names.join(', ')}.`);
  }
  if (spec.help) out.push(...helpBlocks(spec.help));
  const guide = COMMAND_GUIDES[words.join(' ')];
  if (guide !== undefined) out.push(`More: [${guide.replace(/#.*/, '')}](${guide}).`);
  for (const sub of spec.subcommands ?? []) out.push(...renderCommand([...words, sub.name], sub));
  return out;
}

/** GitHub's anchor of a `groove a b` heading. */
function anchor(words: readonly string[]): string {
  return ['groove', ...words].join('-').replace(/[^a-z0-9-]/g, '');
}

/** The reference between (and including) the markers. */
export function renderCliReference(): string {
  const index = COMMANDS.map(
    (spec) => `- [\`groove ${spec.name}\`](#${anchor([spec.name])}): ${inline(spec.description)}`,
  );
  return [
    REFERENCE_START,
    index.join('\n'),
    ...COMMANDS.flatMap((spec) => renderCommand([spec.name], spec)),
    REFERENCE_END,
  ].join('\n\n');
}

/** `doc` with the text between the markers replaced by a freshly rendered reference. */
export function spliceCliReference(doc: string): string {
  const start = doc.indexOf(REFERENCE_START);
  const end = doc.indexOf(REFERENCE_END);
  if (start < 0 || end < start) throw new Error('the cli-reference markers are missing from docs/cli.md');
  return doc.slice(0, start) + renderCliReference() + doc.slice(end + REFERENCE_END.length);
}
