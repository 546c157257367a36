// `groove kb`: the registry of named knowledge bases, as command specs (see command-spec.ts).

import { KB_ADD_OPTIONS, KB_LIST_OPTIONS, KB_REMOVE_OPTIONS, KB_SHOW_OPTIONS } from './command-options.js';
import type { CommandSpec } from './command-spec.js';

const NAME_ARGUMENT = { syntax: '<name>', description: 'KB name: a-z, 0-9, - and _, at most 63 characters' };

export const KB_COMMAND: CommandSpec = {
  name: 'kb',
  description: 'register knowledge bases by name, so every command can take --kb NAME from any folder',
  subcommands: [
    {
      name: 'add',
      description: 'register a folder of notes under a name (with the settings its index is built with)',
      argument: [NAME_ARGUMENT, { syntax: '<path>', description: 'the folder of notes' }],
      options: KB_ADD_OPTIONS,
      help: '\nExamples:\n  groove kb add notes ~/notes\n  groove kb add handbook ~/work/handbook --parsers md,pdf,docx --model none\n  groove kb add docs ./docs --config ./groove.toml',
      load: () => import('./cmd-kb.js').then((m) => ({ run: m.runAdd })),
    },
    {
      name: 'list',
      description: 'every registered KB: path, documents, chunks, model, last indexed, size on disk, health',
      options: KB_LIST_OPTIONS,
      load: () => import('./cmd-kb.js').then((m) => ({ run: m.runList })),
    },
    {
      name: 'show',
      description: "one KB's settings and index",
      argument: NAME_ARGUMENT,
      options: KB_SHOW_OPTIONS,
      load: () => import('./cmd-kb.js').then((m) => ({ run: m.runShow })),
    },
    {
      name: 'rename',
      description: 'give a KB another name (its folder, settings and index stay)',
      argument: [
        { syntax: '<old>', description: 'the current name' },
        { syntax: '<new>', description: 'the new name' },
      ],
      load: () => import('./cmd-kb.js').then((m) => ({ run: m.runRename })),
    },
    {
      name: 'remove',
      description: 'unregister a KB (its folder is never touched; its index is kept unless --delete-index)',
      argument: NAME_ARGUMENT,
      options: KB_REMOVE_OPTIONS,
      load: () => import('./cmd-kb.js').then((m) => ({ run: m.runRemove })),
    },
  ],
};
