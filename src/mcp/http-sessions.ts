// The HTTP transport's session table: one McpServer + Streamable HTTP transport per client session, a cap on how
// many may exist (including ones still initialising), and eviction of sessions a client abandoned.
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface HttpSession {
  id: string;
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  lastSeenMs: number;
}

export interface SessionTableOptions {
  createServer: () => McpServer;
  /** 0 = no cap. */
  maxSessions: number;
  /** A session without a request for this long is closed (its client must initialise again). */
  idleMs: number;
  log: (line: string) => void;
}

export class SessionTable {
  private readonly sessions = new Map<string, HttpSession>();
  private readonly options: SessionTableOptions;
  /** Initialize requests admitted but not yet answered: they count against the cap. */
  private opening = 0;

  constructor(options: SessionTableOptions) {
    this.options = options;
  }

  get size(): number {
    return this.sessions.size;
  }

  /** The live session with this id (touching it), or undefined. */
  find(id: string): HttpSession | undefined {
    const session = this.sessions.get(id);
    if (session) session.lastSeenMs = Date.now();
    return session;
  }

  /** Whether a new session may start now. */
  hasRoom(): boolean {
    const cap = this.options.maxSessions;
    return cap === 0 || this.sessions.size + this.opening < cap;
  }

  /**
   * Run an initialize request on a fresh server + transport. The session joins the table when the transport
   * assigns its id; a failed initialize leaves nothing behind.
   */
  async open(handle: (transport: StreamableHTTPServerTransport) => Promise<void>): Promise<void> {
    this.opening++;
    const server = this.options.createServer();
    let registered = false;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        registered = true;
        this.sessions.set(id, { id, transport, server, lastSeenMs: Date.now() });
      },
      onsessionclosed: (id) => {
        this.sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    try {
      await server.connect(transport);
      await handle(transport);
    } finally {
      this.opening--;
      if (!registered) await server.close().catch(() => {});
    }
  }

  /** Close sessions idle for longer than `idleMs`; returns how many. */
  async evictIdle(nowMs = Date.now()): Promise<number> {
    const stale = [...this.sessions.values()].filter((s) => nowMs - s.lastSeenMs > this.options.idleMs);
    for (const session of stale) await this.closeSession(session, 'idle');
    if (stale.length > 0) this.options.log(`http: closed ${stale.length} idle session(s)`);
    return stale.length;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => this.closeSession(s, 'shutdown')));
  }

  private async closeSession(session: HttpSession, why: string): Promise<void> {
    this.sessions.delete(session.id);
    await session.server.close().catch((error: unknown) => {
      this.options.log(`http: closing session ${session.id} (${why}) failed: ${String(error)}`);
    });
  }
}
