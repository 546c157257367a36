// A throwaway PostgreSQL for tests: PGlite (PostgreSQL in WASM) behind its socket server on 127.0.0.1, so groove
// reaches it exactly as it reaches a real server (the `pg` driver, a connection URL). One per test file: it boots
// in about 2.5 s. It is one shared session: connections take turns, so the pool must not exceed maxConnections.
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { afterAll, beforeAll } from 'vitest';

export interface PgliteServer {
  /** postgres://… for [storage] url (the password is a placeholder: PGlite ignores it). */
  url: string;
  /** Host and port the server listens on. */
  host: string;
  port: number;
  /** Run SQL on the database directly (checks of what groove stored). */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

export interface PgliteServerOptions {
  /** Load pgvector (default true); false plays a server without it. */
  withVector?: boolean;
}

/** Start PGlite on a free loopback port; groove's pool (2 connections) fits under its connection limit. */
export async function startPgliteServer(options: PgliteServerOptions = {}): Promise<PgliteServer> {
  const db = await PGlite.create({
    extensions: options.withVector === false ? { pg_trgm } : { vector, pg_trgm },
  });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 8 });
  await server.start();
  const [host, port] = server.getServerConn().split(':') as [string, string];
  return {
    url: `postgres://postgres:not-a-secret@${host}:${port}/postgres`,
    host,
    port: Number(port),
    query: async <T>(sql: string, params?: unknown[]) => (await db.query<T>(sql, params)).rows,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}

/** One server for the calling test file: started before its tests, stopped after; read it through the getter. */
export function usePgliteServer(options: PgliteServerOptions = {}): () => PgliteServer {
  let server: PgliteServer | undefined;
  beforeAll(async () => {
    server = await startPgliteServer(options);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error('the PGlite server is not started yet (use it inside a test)');
    return server;
  };
}
