// One-shot `groove` processes for the benchmarks (the built CLI, as a user runs it) and warm searches through
// the in-process facade, both returning what they found so two backends' answers can be compared.

import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openKnowledgeBase } from '../src/app/index.js';
import { resolveConfig } from '../src/config/resolve-config.js';
import type { ServeProcess } from './serve-process.js';
import { summarise, type Timing } from './vector-scan.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const binPath = path.join(repoRoot, 'bin/groove.js');

export interface GrooveRun {
  ms: number;
  stdout: string;
  stderr: string;
}

/** `groove <args>` as a fresh process; a non-zero exit is an error carrying the CLI's own `groove: error:` line. */
export function runGroove(args: readonly string[]): Promise<GrooveRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [binPath, ...args], {
    cwd: repoRoot,
    env: { ...process.env, GROOVE_OFFLINE: '1', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code === 0) resolve({ ms, stdout, stderr });
      else reject(new Error(`groove ${args[0]} exited ${code}: ${grooveErrorLine(stderr)}`));
    });
  });
}

/** The `groove: error: …` line of a failed command (or its stderr's last line), for a report's "n/a" cell. */
export function grooveErrorLine(text: string): string {
  const line = /groove: error: (.*)/.exec(text)?.[1];
  return (line ?? text.trim().split('\n').at(-1) ?? 'no message').trim();
}

/** A result list reduced to what identifies each hit, for comparing two backends' answers. */
export type HitKeys = string[];

function keysOf(results: readonly { path: string; heading?: string | null }[]): HitKeys {
  return results.map((hit) => `${hit.path}#${hit.heading ?? ''}`);
}

export interface SearchTimings {
  ms: Timing;
  hits: HitKeys[];
}

/** A fresh `groove search` process per query (no running server answers it); one untimed run first. */
export async function timeOneShotSearches(
  configPath: string,
  queries: readonly string[],
): Promise<SearchTimings> {
  const args = (query: string) => [
    'search',
    query,
    '--config',
    configPath,
    '--format',
    'json',
    '--limit',
    '10',
    '--no-server',
  ];
  await runGroove(args(queries[0]!));
  const times: number[] = [];
  const hits: HitKeys[] = [];
  for (const query of queries) {
    const run = await runGroove(args(query));
    times.push(run.ms);
    hits.push(
      keysOf((JSON.parse(run.stdout) as { results: { path: string; heading: string | null }[] }).results),
    );
  }
  return { ms: summarise(times), hits };
}

/** Every query once untimed, then once timed, on one open facade (what a long-lived process does). */
export async function timeInProcessSearches(
  configPath: string,
  queries: readonly string[],
): Promise<SearchTimings & { openS: number }> {
  const config = resolveConfig({ cwd: path.dirname(configPath), env: { GROOVE_OFFLINE: '1' }, configPath });
  const opened = performance.now();
  const kb = openKnowledgeBase(config);
  try {
    await kb.search({ query: queries[0], limit: 10 });
    const openS = (performance.now() - opened) / 1000;
    for (const query of queries) await kb.search({ query, limit: 10 });
    const times: number[] = [];
    const hits: HitKeys[] = [];
    for (const query of queries) {
      const started = performance.now();
      const response = await kb.search({ query, limit: 10 });
      times.push(performance.now() - started);
      hits.push(keysOf(response.results));
    }
    return { ms: summarise(times), hits, openS };
  } finally {
    await kb.close();
  }
}

/** Every query once untimed, then once timed, over a running serve's HTTP search route. */
export async function timeServedSearches(
  serve: ServeProcess,
  queries: readonly string[],
): Promise<SearchTimings> {
  for (const query of queries) await serve.search(query);
  const times: number[] = [];
  const hits: HitKeys[] = [];
  for (const query of queries) {
    const started = performance.now();
    const response = await serve.search(query);
    times.push(performance.now() - started);
    hits.push(keysOf(response.results));
  }
  return { ms: summarise(times), hits };
}
