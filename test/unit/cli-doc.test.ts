// docs/cli.md's command reference is the command specs rendered: it must equal what `npm run docs:cli` writes,
// and every page it links a command to must exist.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_GUIDES, spliceCliReference } from '../../scripts/cli-doc.js';
import type { CommandSpec } from '../../src/cli/command-spec.js';
import { COMMANDS } from '../../src/cli/commands.js';

const docsDir = path.resolve(import.meta.dirname, '../../docs');

function commandPaths(specs: readonly CommandSpec[], prefix: string[] = []): string[] {
  return specs.flatMap((spec) => {
    const words = [...prefix, spec.name];
    return [words.join(' '), ...commandPaths(spec.subcommands ?? [], words)];
  });
}

describe('docs/cli.md', () => {
  it('equals the reference rendered from the command specs', () => {
    const doc = fs.readFileSync(path.join(docsDir, 'cli.md'), 'utf8');
    expect(doc === spliceCliReference(doc), 'docs/cli.md is out of date: run `npm run docs:cli`').toBe(true);
  });

  it('documents every command and subcommand', () => {
    const doc = fs.readFileSync(path.join(docsDir, 'cli.md'), 'utf8');
    for (const words of commandPaths(COMMANDS)) expect(doc).toContain(`\`groove ${words}\``);
  });

  it('links each command to a page and heading that exist', () => {
    const known = new Set(commandPaths(COMMANDS));
    for (const [words, guide] of Object.entries(COMMAND_GUIDES)) {
      expect(known.has(words), `${words} is no command`).toBe(true);
      const [file, fragment] = guide.split('#');
      const page = fs.readFileSync(path.join(docsDir, file!), 'utf8');
      if (fragment !== undefined) {
        const anchors = [...page.matchAll(/^#+ (.+)$/gm)].map((m) =>
          m[1]!
            .toLowerCase()
            .replace(/[^a-z0-9 -]/g, '')
            .replace(/ /g, '-'),
        );
        expect(anchors, `${guide}`).toContain(fragment);
      }
    }
  });
});
