// [storage]: backend, url and kb from groove.toml, GROOVE_DATABASE_URL winning over the file, validation, and
// database URLs shown with their password masked.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve-config.js';
import { databaseHostOf, databaseUrlProblem, maskDatabaseUrl } from '../../src/core/database-url.js';
import { GrooveError } from '../../src/errors.js';

let root: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'groove-')));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function resolveWith(toml: string, env: Record<string, string> = {}) {
  fs.writeFileSync(path.join(root, 'groove.toml'), toml);
  return resolveConfig({ cwd: root, env });
}

function failureOf(run: () => unknown): GrooveError {
  try {
    run();
  } catch (error) {
    if (error instanceof GrooveError) return error;
    throw error;
  }
  throw new Error('expected a GrooveError');
}

describe('[storage] configuration', () => {
  it('defaults to the SQLite file', () => {
    expect(resolveWith('').storage).toEqual({ backend: 'sqlite', url: null, kb: 'default' });
  });

  it('reads backend, url and kb from the file', () => {
    const config = resolveWith(
      '[storage]\nbackend = "postgres"\nurl = "postgres://groove@db.internal:6543/kbs"\nkb = "team-notes"\n',
    );
    expect(config.storage).toEqual({
      backend: 'postgres',
      url: 'postgres://groove@db.internal:6543/kbs',
      kb: 'team-notes',
    });
  });

  it('lets GROOVE_DATABASE_URL win over the file', () => {
    const config = resolveWith('[storage]\nbackend = "postgres"\nurl = "postgres://file@a/b"\n', {
      GROOVE_DATABASE_URL: 'postgresql://env@b:5433/c',
    });
    expect(config.storage.url).toBe('postgresql://env@b:5433/c');
  });

  it('refuses postgres without a URL, naming both places to set one', () => {
    const error = failureOf(() => resolveWith('[storage]\nbackend = "postgres"\n'));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.toLine()).toContain('GROOVE_DATABASE_URL');
  });

  it('refuses a URL that is not postgres, showing it with the password masked', () => {
    const error = failureOf(() =>
      resolveWith('[storage]\nbackend = "postgres"\n', {
        GROOVE_DATABASE_URL: 'mysql://root:topsecret@h/db',
      }),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.toLine()).toContain('mysql://root:***@h/db');
    expect(error.toLine()).not.toContain('topsecret');
  });

  it('refuses a bad backend or kb name in the file without echoing the value', () => {
    expect(failureOf(() => resolveWith('[storage]\nbackend = "mysql"\n')).code).toBe('CONFIG_INVALID');
    const error = failureOf(() => resolveWith('[storage]\nkb = "Team Notes!"\n'));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('storage.kb');
    const url = failureOf(() => resolveWith('[storage]\nurl = "http://user:leaked@h/"\n'));
    expect(url.message).not.toContain('leaked');
  });
});

describe('database URLs for people', () => {
  it('masks the password and keeps everything else', () => {
    expect(maskDatabaseUrl('postgres://groove:p%40ss@db:5432/kb?sslmode=require')).toBe(
      'postgres://groove:***@db:5432/kb?sslmode=require',
    );
    expect(maskDatabaseUrl('postgres://groove@db/kb')).toBe('postgres://groove@db/kb');
  });

  it('reduces what does not parse to its scheme', () => {
    expect(maskDatabaseUrl('postgres://a:b@[not a host/x')).toBe('postgres://***');
  });

  it('names host:port, 5432 when none is given', () => {
    expect(databaseHostOf('postgres://u:p@db.internal/kb')).toBe('db.internal:5432');
    expect(databaseHostOf('postgres://u@127.0.0.1:6543/kb')).toBe('127.0.0.1:6543');
  });
});

describe('databaseUrlProblem', () => {
  it('accepts every URL the driver parses: TCP, IPv6, a Unix socket folder, query options', () => {
    for (const url of [
      'postgres://u@h/db',
      'postgresql://u:p@h:5432/db',
      'postgres://u@[::1]:5433/db',
      'postgres:///db?host=/var/run/postgresql',
      'postgres://u@%2Fvar%2Frun%2Fpostgresql/db',
      'postgres://u@h/db?sslmode=require',
    ]) {
      expect(databaseUrlProblem(url), url).toBeNull();
    }
  });

  it('says which part is wrong without echoing it', () => {
    expect(databaseUrlProblem('postgres://u@h:notaport/db')).toBe('the port is not a number');
    expect(databaseUrlProblem('postgres://u:secret/db')).toBe('the port is not a number');
    expect(databaseUrlProblem('postgres://u@h:70000/db')).toBe('the port is not from 1 to 65535');
    expect(databaseUrlProblem('postgres://u@[::1/db')).toBe(
      'the IPv6 address opened with "[" is not closed with "]"',
    );
    expect(databaseUrlProblem('postgres://u@[::1]x/db')).toBe(
      'only ":port" may follow the "]" of an IPv6 address',
    );
    expect(databaseUrlProblem('postgres://u@a:1,b:2/db')).toBe(
      'it lists several hosts; groove connects to one host:port',
    );
    expect(databaseUrlProblem('postgres://u@h st/db')).toMatch(/^it is not a valid URL/);
  });
});
