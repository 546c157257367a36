// Turns what the `pg` driver throws into GrooveErrors that name the server (host:port, never the password) and
// the fix; the driver's own text stays in `cause`, out of what users see.
import { databaseHostOf, maskDatabaseUrl } from '../../core/database-url.js';
import { GrooveError } from '../../errors.js';

/** Socket errors and SQLSTATE classes that mean the server cannot be reached or the session is gone. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
]);
const LOGIN_CODES = new Set(['28000', '28P01', '3D000']);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether `error` means the connection is gone (worth one retry on a new connection). */
export function isConnectionLoss(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
  // The driver reports a socket closed under it without a code.
  return error instanceof Error && /Connection terminated|connection.*(closed|ended)/i.test(error.message);
}

/** Whether `error` is a refused login or an unknown database. */
function isLoginFailure(error: unknown): boolean {
  return LOGIN_CODES.has(codeOf(error) ?? '');
}

/** The error for a server that could not be reached or refused us; null for any other failure. */
export function unreachableError(error: unknown, url: string, during: string): GrooveError | null {
  const host = databaseHostOf(url);
  const shown = maskDatabaseUrl(url);
  if (isLoginFailure(error)) {
    const why = codeOf(error) === '3D000' ? 'the database does not exist' : 'the login was refused';
    return new GrooveError('STORAGE_UNREACHABLE', `PostgreSQL at ${host} refused ${during}: ${why}`, {
      cause: error,
      hint: `check the user, password and database in [storage] url or GROOVE_DATABASE_URL (now "${shown}")`,
    });
  }
  if (!isConnectionLoss(error)) return null;
  return new GrooveError('STORAGE_UNREACHABLE', `cannot reach PostgreSQL at ${host} (${during})`, {
    cause: error,
    hint: `start the server or fix [storage] url / GROOVE_DATABASE_URL (now "${shown}"); nothing was half-written`,
  });
}

/** SQLSTATE for a role that may not do what it asked (here: CREATE EXTENSION). */
const INSUFFICIENT_PRIVILEGE = '42501';

/**
 * The error for a model-backed index where pgvector cannot be used: the server has no such extension, or it has
 * one that this role may not create in the database.
 */
export function vectorExtensionMissing(url: string, cause: unknown): GrooveError {
  const host = databaseHostOf(url);
  if (codeOf(cause) === INSUFFICIENT_PRIVILEGE) {
    return new GrooveError(
      'STORAGE_EXTENSION_MISSING',
      `the database at ${host} has no "vector" extension (pgvector) yet, and this user may not create it`,
      {
        cause,
        hint: `ask an administrator to run CREATE EXTENSION vector in the database of "${maskDatabaseUrl(url)}", or index lexical-only with model = "none"`,
      },
    );
  }
  return new GrooveError(
    'STORAGE_EXTENSION_MISSING',
    `PostgreSQL at ${host} has no "vector" extension (pgvector), which an index with an embedding model needs`,
    {
      cause,
      hint: 'install pgvector on the server (groove then creates the extension), or index lexical-only with model = "none"',
    },
  );
}

/** Any other driver failure, without the driver's text in the message. */
export function storageQueryFailed(error: unknown, url: string, during: string): GrooveError {
  if (error instanceof GrooveError) return error;
  const reached = unreachableError(error, url, during);
  if (reached) return reached;
  const code = codeOf(error);
  return new GrooveError(
    'DB_OPEN_FAILED',
    `PostgreSQL at ${databaseHostOf(url)} failed ${during}${code ? ` (SQLSTATE ${code})` : ''}`,
    { cause: error, hint: 'check the server log; what was written before this stays whole' },
  );
}
