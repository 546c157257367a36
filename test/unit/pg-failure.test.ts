// How PostgreSQL driver failures read to users: host:port and the fix, the URL only with its password masked, and
// never the driver's own text (it stays in `cause`).
import { describe, expect, it } from 'vitest';
import {
  isConnectionLoss,
  storageQueryFailed,
  unreachableError,
  vectorExtensionMissing,
} from '../../src/store/postgres/pg-failure.js';

const URL = 'postgres://groove:pa55-word@db.internal:6543/kbs';

/** An error shaped as the `pg` driver throws it: a message and a code (errno name or SQLSTATE). */
function driverError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

describe('PostgreSQL failures as GrooveErrors', () => {
  it('tells a lost connection from other failures', () => {
    expect(isConnectionLoss(driverError('connect ECONNREFUSED 10.0.0.1:6543', 'ECONNREFUSED'))).toBe(true);
    expect(isConnectionLoss(driverError('terminating connection', '57P01'))).toBe(true);
    expect(isConnectionLoss(driverError('server closed the connection', '08006'))).toBe(true);
    expect(isConnectionLoss(driverError('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionLoss(driverError('duplicate key value', '23505'))).toBe(false);
  });

  it('names host:port and the settings to fix for an unreachable server, password masked', () => {
    const error = unreachableError(driverError('connect ECONNREFUSED', 'ECONNREFUSED'), URL, 'while reading');
    expect(error?.code).toBe('STORAGE_UNREACHABLE');
    const line = error?.toLine() ?? '';
    expect(line).toContain('cannot reach PostgreSQL at db.internal:6543');
    expect(line).toContain('postgres://groove:***@db.internal:6543/kbs');
    expect(line).not.toContain('pa55-word');
    expect(line).not.toContain('ECONNREFUSED');
  });

  it('says a login was refused, or the database does not exist', () => {
    const login = unreachableError(driverError('password authentication failed', '28P01'), URL, 'the login');
    expect(login?.toLine()).toContain('the login was refused');
    const missing = unreachableError(driverError('database "kbs" does not exist', '3D000'), URL, 'the login');
    expect(missing?.toLine()).toContain('the database does not exist');
    expect(unreachableError(driverError('syntax error', '42601'), URL, 'x')).toBeNull();
  });

  it('tells a server without pgvector from a user who may not create the extension', () => {
    const absent = vectorExtensionMissing(URL, driverError('extension "vector" is not available', '0A000'));
    expect(absent.code).toBe('STORAGE_EXTENSION_MISSING');
    expect(absent.toLine()).toContain('install pgvector on the server');
    const denied = vectorExtensionMissing(URL, driverError('permission denied to create extension', '42501'));
    expect(denied.toLine()).toContain('ask an administrator to run CREATE EXTENSION vector');
    expect(denied.toLine()).not.toContain('pa55-word');
  });

  it('keeps any other driver text out of the message, giving the SQLSTATE', () => {
    const error = storageQueryFailed(
      driverError('relation "x" has secret detail', '42P01'),
      URL,
      'while writing',
    );
    expect(error.code).toBe('DB_OPEN_FAILED');
    expect(error.toLine()).toContain('SQLSTATE 42P01');
    expect(error.toLine()).not.toContain('secret detail');
  });
});
