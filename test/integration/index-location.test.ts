// Where an index may live, through the facade on real files: a --db-path inside the KB, a folder, a missing or
// read-only parent folder are refused before any work, and a file that is not a groove index is never written
// or replaced (not even by --force); only a damaged groove index is offered a rebuild.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIndexerPorts } from '../../src/app/indexing/indexer-ports.js';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import type { ConfigOverrides } from '../../src/config/resolve-config.js';
import { GrooveError } from '../../src/errors.js';
import { damageIndex, writeForeignDatabase } from '../support/damage-index.js';
import { createTempKb, noteText, type TempKb } from '../support/temp-kb.js';
import { mountTmpfs, tmpfsUnavailable } from '../support/tmpfs.js';

let kb: TempKb;
beforeEach(() => {
  kb = createTempKb({ 'README.md': noteText('readme'), 'notes/b.md': noteText('b') });
});
afterEach(() => kb.cleanup());

const config = (overrides: ConfigOverrides = {}) => kb.config({ overrides: { model: 'none', ...overrides } });

/** Every facade entry a command uses, each caught: construction, index, --force, status and search. */
async function everyCommand(dbPath: string): Promise<unknown[]> {
  const caught: unknown[] = [];
  const attempt = async (work: () => unknown) => {
    try {
      await work();
      caught.push(null);
    } catch (error) {
      caught.push(error);
    }
  };
  const withFacade = (work: (facade: ReturnType<typeof openKnowledgeBase>) => unknown) => async () => {
    const facade = openKnowledgeBase(config({ dbPath }));
    try {
      return await work(facade);
    } finally {
      await facade.close();
    }
  };
  await attempt(withFacade((facade) => facade.index()));
  await attempt(withFacade((facade) => facade.index({ force: true })));
  await attempt(withFacade((facade) => facade.status()));
  await attempt(withFacade((facade) => facade.search({ query: 'readme' })));
  return caught;
}

function expectAll(errors: unknown[], code: string, ...mustContain: string[]): void {
  expect(errors).toHaveLength(4);
  for (const error of errors) {
    expect(error).toBeInstanceOf(GrooveError);
    expect((error as GrooveError).code).toBe(code);
    for (const text of mustContain) expect((error as GrooveError).toLine()).toContain(text);
  }
}

const siblings = (dbPath: string) =>
  fs.readdirSync(path.dirname(dbPath)).filter((name) => name.startsWith(`${path.basename(dbPath)}.`));

describe('a --db-path inside the knowledge base', () => {
  it('is refused for every command and the note is never touched', async () => {
    const note = kb.abs('README.md');
    const before = fs.readFileSync(note);
    expectAll(await everyCommand(note), 'INVALID_ARGUMENT', 'inside the knowledge base', '--db-path');
    expect(fs.readFileSync(note)).toEqual(before);
    expect(fs.readdirSync(kb.kbPath).sort()).toEqual(['README.md', 'notes']);
  });

  it('is recognised through symbolic links, on the folder or on the file', async () => {
    fs.symlinkSync(kb.kbPath, path.join(kb.root, 'kb-link'));
    expectAll(await everyCommand(path.join(kb.root, 'kb-link', 'new.db')), 'INVALID_ARGUMENT', 'inside');
    fs.symlinkSync(kb.abs('README.md'), path.join(kb.root, 'index.db'));
    expectAll(await everyCommand(path.join(kb.root, 'index.db')), 'INVALID_ARGUMENT', 'inside');
    expect(fs.readdirSync(kb.kbPath).sort()).toEqual(['README.md', 'notes']);
  });

  it('the walk never lists the index or its companion files, should one sit there anyway', () => {
    const dbPath = kb.abs('notes/index.md');
    for (const suffix of ['', '-wal', '.lock', '.rebuild']) kb.write(`notes/index.md${suffix}`, 'not a note');
    const walked = buildIndexerPorts(kb.kbPath, config({ dbPath }))
      .walk()
      .files.map((file) => file.relPath);
    expect(walked.sort()).toEqual(['README.md', 'notes/b.md']);
  });
});

describe('an index path that cannot be one', () => {
  it('a folder: refused up front for every command, nothing created beside it', async () => {
    const folder = path.join(kb.root, 'a-folder');
    fs.mkdirSync(folder);
    expectAll(await everyCommand(folder), 'INVALID_ARGUMENT', 'is a folder');
    expect(siblings(folder)).toEqual([]);
    expect(fs.readdirSync(folder)).toEqual([]);
  });

  it('a missing parent folder: says so, creates nothing', async () => {
    const dbPath = path.join(kb.root, 'missing', 'index.db');
    expectAll(
      await everyCommand(dbPath),
      'INVALID_ARGUMENT',
      'does not exist',
      path.join(kb.root, 'missing'),
    );
    expect(fs.existsSync(path.join(kb.root, 'missing'))).toBe(false);
  });

  it.skipIf(tmpfsUnavailable !== null)(
    'a read-only parent folder: STORAGE_DENIED, nothing created',
    async () => {
      const disk = mountTmpfs(1024 * 1024);
      try {
        disk.remount('ro');
        const errors = await everyCommand(path.join(disk.dir, 'index.db'));
        expectAll(errors, 'STORAGE_DENIED', disk.dir, 'writable');
        expect(fs.readdirSync(disk.dir)).toEqual([]);
      } finally {
        disk.unmount();
      }
    },
  );
});

describe('a file that is not a groove index', () => {
  it('plain text: never written, not even by --force, and no rebuild is offered', async () => {
    const dbPath = path.join(kb.root, 'shopping-list.txt');
    fs.writeFileSync(dbPath, 'eggs\nflour\n'.repeat(100));
    const errors = await everyCommand(dbPath);
    expectAll(errors, 'DB_NOT_INDEX', dbPath, 'another --db-path', 'remove that file yourself');
    for (const error of errors) expect((error as GrooveError).toLine()).not.toContain('--force');
    expect(fs.readFileSync(dbPath, 'utf8')).toBe('eggs\nflour\n'.repeat(100));
    expect(siblings(dbPath)).toEqual([]);
  });

  it("someone else's SQLite database: never migrated into, never replaced", async () => {
    const dbPath = path.join(kb.root, 'recipes.db');
    writeForeignDatabase(dbPath);
    const before = fs.readFileSync(dbPath);
    expectAll(await everyCommand(dbPath), 'DB_NOT_INDEX', dbPath);
    expect(fs.readFileSync(dbPath)).toEqual(before);
    expect(siblings(dbPath)).toEqual([]);
  });

  it('an empty file holds nothing to lose and becomes the index', async () => {
    fs.writeFileSync(kb.dbPath, '');
    const facade = openKnowledgeBase(config());
    expect(await facade.index()).toMatchObject({ indexed: 2, documents: 2 });
    await facade.close();
  });
});

describe('a damaged groove index', () => {
  it('is DB_CORRUPT with the --force hint, and --force rebuilds it', async () => {
    const first = openKnowledgeBase(config());
    await first.index();
    await first.close();
    damageIndex(kb.dbPath);
    const errors = await everyCommand(kb.dbPath);
    expect(errors.map((error) => (error as GrooveError | null)?.code ?? 'ok')).toEqual([
      'DB_CORRUPT',
      'ok',
      'ok',
      'ok',
    ]);
    expect((errors[0] as GrooveError).hint).toContain('--force');
    expect(openKnowledgeBase(config()).status()).toMatchObject({ documents: 2 });
  });
});

describe('an index path that turns into a folder during a --force', () => {
  it('fails with a named error and leaves no rebuild file behind', async () => {
    const first = openKnowledgeBase(config());
    await first.index();
    await first.close();
    const facade = openKnowledgeBase(config());
    let swapped = false;
    const error = await facade
      .index({
        force: true,
        onEvent: () => {
          if (swapped) return;
          swapped = true;
          fs.rmSync(kb.dbPath);
          fs.mkdirSync(kb.dbPath);
        },
      })
      .catch((caught: unknown) => caught);
    await facade.close();
    expect(error).toBeInstanceOf(GrooveError);
    expect((error as GrooveError).toLine()).toContain(kb.dbPath);
    expect(siblings(kb.dbPath).filter((name) => name.includes('.rebuild'))).toEqual([]);
  });
});
