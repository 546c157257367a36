// MCP over stdio: one client per process, stdout carries nothing but protocol frames. Serving ends when the
// client hangs up (stdin EOF, or stdout gone) or `close()` is called.
import type { Readable, Writable } from 'node:stream';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

export interface StdioServeOptions {
  server: McpServer;
  stdin: Readable;
  stdout: Writable;
  log: (line: string) => void;
}

export interface StdioServing {
  /** Resolves once the client has hung up or `close()` ran; the server is closed by then. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveStdio(options: StdioServeOptions): Promise<StdioServing> {
  const { server, stdin, stdout, log } = options;
  const transport = new StdioServerTransport(stdin, stdout);
  let finish = () => {};
  const closed = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      stdin.off('end', onEnd);
      stdin.off('close', onEnd);
      stdout.off('error', onStdoutError);
      await server.close().catch((error: unknown) => log(`stdio: close failed: ${String(error)}`));
      finish();
    })();
    return closing;
  };
  const onEnd = () => {
    log('stdio: the client closed stdin; shutting down');
    void close();
  };
  const onStdoutError = (error: Error) => {
    log(`stdio: cannot write to the client (${error.message}); shutting down`);
    void close();
  };
  transport.onerror = (error) => log(`stdio: ${error.message}`);
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  stdout.on('error', onStdoutError);
  await server.connect(transport);
  return { closed, close };
}
