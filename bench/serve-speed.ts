// Serving benchmark: concurrent MCP clients over Streamable HTTP on 127.0.0.1 run searches against one server;
// reports searches/s, p50/p95/max latency and errors, then the same while rebuild_index (force) runs.
// Run: npm run build && npx tsx bench/serve-speed.ts [--model minilm|none] [--clients 8] [--seconds 10]
//      [--copies N] [--no-rebuild] [--real-passages]. Corpus: SciFact (../shared/eval/scifact) copied N times
//      (default: 2 copies with a model, ≈10k chunks; 1 copy lexical-only). Target (issue 5): ≥ 50 searches/s with
//      a MiniLM-shaped model. Unless --real-passages, passages get pseudo-random unit vectors at index time (a
//      MiniLM-shaped model takes tens of minutes for 10k chunks on two cores); queries always run the real model,
//      so what a search costs is measured exactly.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parse as parseYaml } from 'yaml';
import { writeTestModel } from '../scripts/test-model/write-test-model.js';
import { createEmbedderFor, IndexRunner, openKnowledgeBase } from '../src/app/index.js';
import { resolveConfig } from '../src/config/resolve-config.js';
import { createGrooveServer } from '../src/mcp/server.js';
import { serveHttp } from '../src/mcp/transport-http.js';
import type { Embedder } from '../src/types.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'minilm' },
    clients: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '10' },
    copies: { type: 'string' },
    'no-rebuild': { type: 'boolean', default: false },
    'real-passages': { type: 'boolean', default: false },
  },
});
const lexical = values.model === 'none';
const clientCount = Number(values.clients);
const seconds = Number(values.seconds);
const copies = Number(values.copies ?? (lexical ? 1 : 2));

const scifact = path.resolve(repoRoot, '../shared/eval/scifact');
if (!fs.existsSync(path.join(scifact, 'kb'))) {
  console.log(`skipped: ${scifact}/kb not found`);
  process.exitCode = 0;
} else {
  await main();
}

interface Tally {
  latenciesMs: number[];
  errors: number;
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-bench-serve-'));
  try {
    const kbPath = path.join(work, 'kb');
    for (let copy = 0; copy < copies; copy++)
      fs.cpSync(path.join(scifact, 'kb'), path.join(kbPath, `copy${copy}`), { recursive: true });
    const modelDir = lexical
      ? undefined
      : writeTestModel({ kind: 'embed', shape: 'minilm-l6', outDir: path.join(work, 'model') }).dir;
    const config = resolveConfig({
      cwd: work,
      env: { GROOVE_OFFLINE: '1' },
      overrides: {
        kbPath,
        dbPath: path.join(work, 'index.db'),
        ...(lexical ? { model: 'none' } : { modelDir }),
      },
    });
    const kb = openKnowledgeBase(
      config,
      values['real-passages'] ? {} : { createEmbedder: withCheapPassages },
    );
    const indexStarted = performance.now();
    const summary = await kb.index();
    const indexSeconds = (performance.now() - indexStarted) / 1000;
    console.log(
      `index: ${summary.documents} documents, ${summary.chunks} chunks, model ${summary.model}, ${indexSeconds.toFixed(1)} s`,
    );
    const runner = new IndexRunner(kb);
    const serving = await serveHttp({
      createServer: () => createGrooveServer({ kb, runner, version: 'bench', log: () => {} }),
      bind: '127.0.0.1',
      port: 0,
      allowedHosts: [],
      allowedOrigins: [],
      token: null,
      maxSessions: 256,
      healthzPublic: true,
      log: () => {},
    });
    const queries = loadQueries();
    const clients = await Promise.all(Array.from({ length: clientCount }, () => connect(serving.url)));
    await runLoad(clients, queries, 1); // warm-up: session open, vector snapshot, model
    const steady = await runLoad(clients, queries, seconds);
    report('steady', steady, seconds);
    if (!values['no-rebuild']) {
      const rebuild = await measureDuringRebuild(clients, queries, clients[0]!);
      report(
        `during rebuild_index force (${(rebuild.rebuildMs / 1000).toFixed(1)} s)`,
        rebuild.tally,
        rebuild.rebuildMs / 1000,
      );
    }
    for (const client of clients) await client.close();
    await serving.close();
    await kb.close();
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The real embedder for queries; passages get a deterministic pseudo-random unit vector of the same size. */
async function withCheapPassages(config: Parameters<typeof createEmbedderFor>[0]): Promise<Embedder | null> {
  const real = await createEmbedderFor(config);
  if (!real) return null;
  return {
    id: real.id,
    provider: real.provider,
    dimension: real.dimension,
    embedQuery: (text) => real.embedQuery(text),
    embedDocuments: async (texts) => texts.map((text) => pseudoRandomUnit(text, real.dimension)),
    close: () => real.close(),
  };
}

function pseudoRandomUnit(text: string, dimension: number): Float32Array {
  let state = createHash('sha256').update(text).digest().readUInt32LE(0) || 1;
  const vector = new Float32Array(dimension);
  for (let i = 0; i < dimension; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    vector[i] = (state >>> 0) / 4294967296 - 0.5;
  }
  const norm = Math.hypot(...vector);
  return vector.map((v) => v / norm);
}

function loadQueries(): string[] {
  const golden = parseYaml(fs.readFileSync(path.join(scifact, 'golden-train.yml'), 'utf8')) as {
    queries: { query: string }[];
  };
  return golden.queries.map((q) => q.query);
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** Every client searches back to back for `forSeconds` (or until `stop` resolves). */
async function runLoad(
  clients: Client[],
  queries: string[],
  forSeconds: number,
  stop?: Promise<void>,
): Promise<Tally> {
  const tally: Tally = { latenciesMs: [], errors: 0 };
  let running = true;
  const timer = setTimeout(() => {
    running = false;
  }, forSeconds * 1000);
  void stop?.then(() => {
    running = false;
  });
  let next = 0;
  await Promise.all(
    clients.map(async (client) => {
      while (running) {
        const query = queries[next++ % queries.length]!;
        const started = performance.now();
        try {
          const result = await client.callTool({ name: 'search', arguments: { query, limit: 10 } });
          if (result.isError) tally.errors++;
        } catch {
          tally.errors++;
        }
        tally.latenciesMs.push(performance.now() - started);
      }
    }),
  );
  clearTimeout(timer);
  return tally;
}

async function measureDuringRebuild(clients: Client[], queries: string[], caller: Client) {
  const started = performance.now();
  const rebuild = caller.callTool({ name: 'rebuild_index', arguments: { force: true } }, undefined, {
    timeout: 600_000,
  });
  const done = rebuild.then(() => undefined);
  const tally = await runLoad(clients, queries, 600, done);
  const result = await rebuild;
  if (result.isError) throw new Error(`rebuild failed: ${JSON.stringify(result.content)}`);
  return { tally, rebuildMs: performance.now() - started };
}

function report(label: string, tally: Tally, seconds: number): void {
  const sorted = [...tally.latenciesMs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  console.log(
    `${label}: ${clientCount} clients, ${sorted.length} searches, ${(sorted.length / seconds).toFixed(1)} searches/s, ` +
      `p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms, errors ${tally.errors}`,
  );
}
