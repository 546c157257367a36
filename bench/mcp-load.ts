// Concurrent MCP clients over Streamable HTTP, spread round-robin over one or more `groove serve` endpoints, each
// calling the `search` tool back to back for a fixed time: what a fleet of agents puts on a set of replicas.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { summarise, type Timing } from './vector-scan.js';

export interface LoadReport {
  clients: number;
  endpoints: number;
  seconds: number;
  searches: number;
  searches_per_s: number;
  latency_ms: Timing;
  errors: number;
}

export interface LoadOptions {
  /** MCP endpoints (`http://127.0.0.1:P/mcp`); client i talks to endpoint i mod n. */
  urls: readonly string[];
  clients: number;
  queries: readonly string[];
  seconds: number;
  /** An untimed run first: sessions open, caches and snapshots warm. */
  warmUpSeconds?: number;
}

/** Open the clients, warm up, then measure `seconds` of back-to-back searches; the clients are closed after. */
export async function measureLoad(options: LoadOptions): Promise<LoadReport> {
  const clients = await Promise.all(
    Array.from({ length: options.clients }, (_, i) => connect(options.urls[i % options.urls.length]!)),
  );
  try {
    await runFor(clients, options.queries, options.warmUpSeconds ?? 1);
    const started = performance.now();
    const tally = await runFor(clients, options.queries, options.seconds);
    const seconds = (performance.now() - started) / 1000;
    return {
      clients: options.clients,
      endpoints: options.urls.length,
      seconds,
      searches: tally.latencies.length,
      searches_per_s: tally.latencies.length / seconds,
      latency_ms: summarise(tally.latencies),
      errors: tally.errors,
    };
  } finally {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
  }
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'bench-load', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** Every client searches until the time is up; a tool error or a failed call counts as an error, not a search. */
async function runFor(
  clients: readonly Client[],
  queries: readonly string[],
  seconds: number,
): Promise<{ latencies: number[]; errors: number }> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < until) {
        const query = queries[next++ % queries.length]!;
        const started = performance.now();
        try {
          const result = await client.callTool({ name: 'search', arguments: { query, limit: 10 } });
          if (result.isError) errors++;
          else latencies.push(performance.now() - started);
        } catch {
          errors++;
        }
      }
    }),
  );
  return { latencies, errors };
}
