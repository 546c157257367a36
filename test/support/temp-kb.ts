// A throw-away knowledge base in os.tmpdir for indexer and CLI tests: write/move/delete notes, resolve a
// config the way the CLI does, and read back what the real SQLite index holds. Test-only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach } from 'vitest';
import { type ConfigOverrides, type ResolvedConfig, resolveConfig } from '../../src/config/resolve-config.js';

export interface StoredChunk {
  content: string;
  heading: string | null;
  embedKey: string | null;
  byteStart: number;
  byteEnd: number;
  vector: Buffer | null;
}

export interface StoredDocument {
  path: string;
  title: string;
  contentHash: string;
  frontmatterError: string | null;
  tags: string[];
  chunks: StoredChunk[];
}

export interface TempKb {
  /** Temp folder holding `kb/`, the index and any groove.toml. */
  root: string;
  kbPath: string;
  dbPath: string;
  write(relPath: string, content: string | Buffer): string;
  remove(relPath: string): void;
  move(fromRel: string, toRel: string): void;
  abs(relPath: string): string;
  /** Resolve a config as `groove index --kb-path … --db-path …` would; `toml` becomes root/groove.toml (else none). */
  config(options?: { toml?: string; overrides?: ConfigOverrides }): ResolvedConfig;
  /** Every document with its chunks (in chunk order), read straight from the index file. */
  documents(): Map<string, StoredDocument>;
  /** How many FTS rows of each table match `term` (checks that deletes reach the FTS tables). */
  ftsMatches(term: string): { trigram: number; words: number };
  cleanup(): void;
}

export function createTempKb(files: Record<string, string | Buffer> = {}): TempKb {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-')));
  const kbPath = path.join(root, 'kb');
  fs.mkdirSync(kbPath);
  const dbPath = path.join(root, 'index.groove.db');
  const abs = (relPath: string) => path.join(kbPath, ...relPath.split('/'));
  const withDb = <T>(read: (db: Database.Database) => T): T => {
    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    try {
      return read(db);
    } finally {
      db.close();
    }
  };
  const kb: TempKb = {
    root,
    kbPath,
    dbPath,
    abs,
    write(relPath, content) {
      const file = abs(relPath);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
      return file;
    },
    remove(relPath) {
      fs.rmSync(abs(relPath));
    },
    move(fromRel, toRel) {
      fs.mkdirSync(path.dirname(abs(toRel)), { recursive: true });
      fs.renameSync(abs(fromRel), abs(toRel));
    },
    config(options = {}) {
      // Written (or removed) every time so a later call never picks up an earlier call's file by discovery.
      const tomlPath = path.join(root, 'groove.toml');
      if (options.toml === undefined) fs.rmSync(tomlPath, { force: true });
      else fs.writeFileSync(tomlPath, options.toml);
      const configPath = options.toml === undefined ? undefined : tomlPath;
      return resolveConfig({
        configPath,
        cwd: root,
        env: {},
        overrides: { kbPath, dbPath, ...options.overrides },
      });
    },
    documents() {
      return withDb((db) => {
        const docs = db
          .prepare('SELECT id, path, title, content_hash, frontmatter_error, tags FROM documents')
          .all() as {
          id: number;
          path: string;
          title: string;
          content_hash: string;
          frontmatter_error: string | null;
          tags: string;
        }[];
        const chunkQuery =
          db.prepare(`SELECT c.content, c.heading, c.embed_key AS embedKey, c.byte_start AS byteStart,
            c.byte_end AS byteEnd, v.embedding AS vector
          FROM chunks c LEFT JOIN chunk_vectors v ON v.chunk_id = c.id WHERE c.document_id = ? ORDER BY c.chunk_index`);
        return new Map(
          docs.map((d) => [
            d.path,
            {
              path: d.path,
              title: d.title,
              contentHash: d.content_hash,
              frontmatterError: d.frontmatter_error,
              tags: JSON.parse(d.tags) as string[],
              chunks: chunkQuery.all(d.id) as StoredChunk[],
            },
          ]),
        );
      });
    },
    ftsMatches(term) {
      return withDb((db) => {
        const quoted = `"${term.replaceAll('"', '""')}"`;
        const count = (table: string) =>
          db.prepare(`SELECT count(*) FROM ${table} WHERE ${table} MATCH ?`).pluck().get(quoted) as number;
        return { trigram: count('fts_chunks'), words: count('fts_words') };
      });
    },
    cleanup() {
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
  for (const [relPath, content] of Object.entries(files)) kb.write(relPath, content);
  return kb;
}

/** A small Markdown note with frontmatter and two sections whose words are unique to `name`. */
export function noteText(name: string, options: { title?: string; tags?: string[] } = {}): string {
  const tags = options.tags ?? ['test'];
  return [
    '---',
    `title: ${options.title ?? `Note ${name}`}`,
    `tags: [${tags.join(', ')}]`,
    '---',
    `# Note ${name}`,
    '',
    `The first section of ${name} talks about ${name}alpha and has enough words to stand alone as a chunk.`,
    '',
    `## Details of ${name}`,
    '',
    `The second section of ${name} mentions ${name}beta, again with plenty of words so it is not merged.`,
    '',
  ].join('\n');
}

/** The three notes (`notes/alpha.md`, `beta`, `gamma`) most eval tests start from, plus any extra files. */
export function threeNoteFiles(extra: Record<string, string> = {}): Record<string, string> {
  return {
    'notes/alpha.md': noteText('alpha'),
    'notes/beta.md': noteText('beta'),
    'notes/gamma.md': noteText('gamma'),
    ...extra,
  };
}

/** A factory whose temp KBs are cleaned up after each test of the calling file. */
export function useTempKbs(): (files: Record<string, string | Buffer>) => TempKb {
  const created: TempKb[] = [];
  afterEach(() => {
    for (const kb of created.splice(0)) kb.cleanup();
  });
  return (files) => {
    const kb = createTempKb(files);
    created.push(kb);
    return kb;
  };
}
