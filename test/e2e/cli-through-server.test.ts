// `groove search` and `groove status` through a running `groove serve` (real child processes, a real Unix socket,
// a real index, the generated test model): the answer is byte for byte the in-process one for many flag sets;
// a server killed with SIGKILL leaves a socket the CLI steps around and the next server replaces; a socket place
// that is a file, a link, open to others or another user's is not used; a server for another index or another
// config is not used; a server that never answers costs the deadline, not a hang; a stopped server removes its
// socket. Which path answered is read from the GROOVE_DEBUG line, and for the hybrid index also from whether the
// CLI process mapped onnxruntime (it must not when the server answers).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type LocalSocketPlace, localSocketPlace } from '../../src/local-socket/local-socket-path.js';
import { binPath } from '../support/run-bin.js';
import { ensureTinyModel } from '../support/test-models.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const hasDist = fs.existsSync(path.join(repoRoot, 'dist/src/cli/main.js'));
const librariesHook = path.join(repoRoot, 'test/support/loaded-libraries.mjs');
const SERVED = 'groove: debug: answered by groove serve';
const IN_PROCESS = 'groove: debug: answering in-process';

let workDir: string;
let runDir: string;
const kbArgs: Record<'lexical' | 'hybrid', string[]> = { lexical: [], hybrid: [] };
const servers: ChildProcess[] = [];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function groove(args: string[], env: Record<string, string> = {}, preload: string[] = []): Run {
  const run = spawnSync(process.execPath, [...preload, binPath, ...args], {
    cwd: workDir,
    encoding: 'utf8',
    env: { ...process.env, GROOVE_OFFLINE: '1', GROOVE_RUNTIME_DIR: runDir, ...env },
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A command with GROOVE_DEBUG: its output with the debug line taken out, and that line. */
function debugged(args: string[], env: Record<string, string> = {}): Run & { debug: string } {
  const run = groove(args, { GROOVE_DEBUG: '1', ...env });
  const lines = run.stderr.split('\n');
  const debug = lines.filter((line) => line.startsWith('groove: debug:')).join('\n');
  const stderr = lines.filter((line) => !line.startsWith('groove: debug:')).join('\n');
  return { ...run, stderr, debug };
}

/**
 * Start `groove serve` (HTTP on a free port, or stdio with its stdin held open) and wait until it serves;
 * resolves with the child and its stderr so far.
 */
async function startServe(
  args: string[],
  transport: 'http' | 'stdio' = 'http',
): Promise<{ child: ChildProcess; log: () => string }> {
  const transportArgs = transport === 'http' ? ['--transport', 'http', '--port', '0'] : [];
  const child = spawn(process.execPath, [binPath, 'serve', ...transportArgs, ...args], {
    cwd: workDir,
    env: { ...process.env, GROOVE_OFFLINE: '1', GROOVE_RUNTIME_DIR: runDir },
  });
  servers.push(child);
  let log = '';
  child.stdout?.resume();
  const ready = transport === 'http' ? 'status page:' : 'over stdio';
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (data: Buffer) => {
      log += data.toString();
      if (log.includes(ready)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${log}`)));
  });
  return { child, log: () => log };
}

function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

function placeOf(kind: 'lexical' | 'hybrid'): LocalSocketPlace {
  return localSocketPlace(path.join(workDir, `${kind}.db`), { GROOVE_RUNTIME_DIR: runDir })!;
}

/** The onnxruntime / sharp libraries a CLI run mapped (test/support/loaded-libraries.mjs). */
function modelLibrariesOf(args: string[]): string[] {
  const out = path.join(workDir, `libraries-${process.hrtime.bigint()}.json`);
  const run = groove(args, { GROOVE_TEST_LIBRARIES_OUT: out }, ['--import', librariesHook]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(fs.readFileSync(out, 'utf8')) as string[];
}

beforeAll(() => {
  if (!hasDist) return;
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-through-server-'));
  runDir = path.join(workDir, 'run');
  fs.mkdirSync(runDir);
  for (const kind of ['lexical', 'hybrid'] as const) {
    fs.cpSync(path.join(repoRoot, 'examples/sample-kb'), path.join(workDir, kind), { recursive: true });
    kbArgs[kind] = ['--kb-path', path.join(workDir, kind), '--db-path', path.join(workDir, `${kind}.db`)];
  }
  const built = [
    groove(['index', ...kbArgs.lexical, '--model', 'none']),
    groove(['index', ...kbArgs.hybrid, '--model-dir', ensureTinyModel('embed')]),
  ];
  for (const run of built) expect(run.code, run.stderr).toBe(0);
  kbArgs.hybrid.push('--model-dir', ensureTinyModel('embed'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((child) => stop(child, 'SIGKILL')));
});
afterAll(() => {
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

const FLAG_SETS: string[][] = [
  [],
  ['--limit', '3'],
  ['--format', 'text'],
  ['--explain', '--limit', '2'],
  ['--tag-any', 'ops,財務'],
  ['--path-glob', 'ops/**', '--include-low-quality'],
  ['--mmr', '--mmr-lambda', '0.5', '--format', 'text'],
  ['--category', 'nowhere'],
];

const title = hasDist
  ? 'groove search and status through a running groove serve'
  : 'groove search and status through a running groove serve (skipped: no dist/ build — run `npm run build`)';

describe.skipIf(!hasDist)(title, () => {
  for (const kind of ['lexical', 'hybrid'] as const) {
    it(`${kind}: the server's answers are the in-process ones, flag for flag`, async () => {
      await startServe(kbArgs[kind]);
      for (const [n, flags] of FLAG_SETS.entries()) {
        const query = n % 2 === 0 ? 'reset password' : '売上 報告';
        const args = ['search', query, ...kbArgs[kind], ...flags];
        const served = debugged(args);
        const local = groove([...args, '--no-server']);
        expect(served.debug, flags.join(' ')).toContain(SERVED);
        expect({ code: served.code, stdout: served.stdout, stderr: served.stderr }).toEqual(local);
        expect(local.code).toBe(0);
      }
      // status takes no model flags, and needs none to be answered by a server that was given them.
      const statusArgs = ['status', ...kbArgs[kind].slice(0, 4)];
      for (const format of ['text', 'json']) {
        const served = debugged([...statusArgs, '--format', format]);
        expect(served.debug).toContain(SERVED);
        const local = groove([...statusArgs, '--format', format, '--no-server']);
        expect({ code: served.code, stdout: served.stdout, stderr: served.stderr }).toEqual(local);
      }
      // Without GROOVE_DEBUG the two print exactly the same bytes on both streams.
      const args = ['search', 'backup', ...kbArgs[kind], '--limit', '2'];
      expect(groove(args)).toEqual(groove(args, { GROOVE_NO_SERVER: '1' }));
    }, 120_000);
  }

  it('a stdio server answers too, and removes its socket when its client closes stdin', async () => {
    const { child } = await startServe(kbArgs.lexical, 'stdio');
    const args = ['search', 'reset password', ...kbArgs.lexical];
    const served = debugged(args);
    expect(served.debug).toContain(SERVED);
    expect({ code: served.code, stdout: served.stdout, stderr: served.stderr }).toEqual(
      groove([...args, '--no-server']),
    );
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin?.end();
    await exited;
    expect(fs.existsSync(placeOf('lexical').socketPath)).toBe(false);
  }, 60_000);

  it('a hybrid search the server answers loads no model library into the CLI process', async () => {
    await startServe(kbArgs.hybrid);
    const args = ['search', 'reset password', ...kbArgs.hybrid];
    expect(modelLibrariesOf(args)).toEqual([]);
    expect(modelLibrariesOf([...args, '--no-server']).join(' ')).toMatch(/onnxruntime/);
  }, 60_000);

  it('an error is the in-process error: the server never answers with one', async () => {
    await startServe(kbArgs.lexical);
    // A query of exclusions only is refused (QUERY_INVALID, exit 2).
    const args = (extra: string[]) => ['search', ...kbArgs.lexical, ...extra, '--', '-backup'];
    const served = debugged(args([]));
    expect(served.debug).toContain(IN_PROCESS);
    expect({ code: served.code, stdout: served.stdout, stderr: served.stderr }).toEqual(
      groove(args(['--no-server'])),
    );
    expect(served.code).toBe(2);
  }, 60_000);

  it('SIGKILL leaves a stale socket: the CLI answers in-process, the next serve replaces it, a stop removes it', async () => {
    const place = placeOf('lexical');
    const first = await startServe(kbArgs.lexical);
    await stop(first.child, 'SIGKILL');
    expect(fs.lstatSync(place.socketPath).isSocket()).toBe(true);
    const args = ['search', 'reset password', ...kbArgs.lexical];
    const stale = debugged(args);
    expect(stale.debug).toMatch(/answering in-process: cannot connect \(ECONNREFUSED\)/);
    expect({ code: stale.code, stdout: stale.stdout, stderr: stale.stderr }).toEqual(
      groove([...args, '--no-server']),
    );
    const second = await startServe(kbArgs.lexical);
    expect(second.log()).toContain(`answering groove search and groove status on ${place.socketPath}`);
    expect(debugged(args).debug).toContain(SERVED);
    await stop(second.child);
    expect(second.log()).toContain('stopped');
    expect(fs.existsSync(place.socketPath)).toBe(false);
    expect(fs.statSync(place.dir).isDirectory()).toBe(true);
  }, 60_000);

  it('a file or a link in the socket place is not used, and serve leaves it alone', async () => {
    const place = placeOf('lexical');
    const args = ['search', 'reset password', ...kbArgs.lexical];
    fs.mkdirSync(place.dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(place.socketPath, 'not a socket', { mode: 0o600 });
    const withFile = await startServe(kbArgs.lexical);
    expect(withFile.log()).toMatch(/no local socket for CLI calls: not a socket; left in place/);
    expect(debugged(args).debug).toMatch(/answering in-process: not a socket/);
    expect(fs.readFileSync(place.socketPath, 'utf8')).toBe('not a socket');
    await stop(withFile.child);
    fs.rmSync(place.socketPath);
    // A link to a live server's socket (the hybrid index's) is refused before any connection.
    await startServe(kbArgs.hybrid);
    fs.symlinkSync(placeOf('hybrid').socketPath, place.socketPath);
    expect(debugged(args).debug).toMatch(/answering in-process: the socket is a symbolic link/);
    fs.rmSync(place.socketPath);
  }, 60_000);

  it('a socket or folder open to others, or owned by another user, is not used', async () => {
    const place = placeOf('lexical');
    const args = ['search', 'reset password', ...kbArgs.lexical];
    await startServe(kbArgs.lexical);
    expect(debugged(args).debug).toContain(SERVED);
    fs.chmodSync(place.socketPath, 0o666);
    expect(debugged(args).debug).toMatch(/answering in-process: the socket is open to other users/);
    fs.chmodSync(place.socketPath, 0o600);
    fs.chmodSync(place.dir, 0o755);
    expect(debugged(args).debug).toMatch(/answering in-process: the folder is open to other users/);
    fs.chmodSync(place.dir, 0o700);
    expect(debugged(args).debug).toContain(SERVED);
    if (process.getuid?.() === 0) {
      // Only root can hand a file to another user; everyone else is covered by the mode checks above.
      fs.chownSync(place.socketPath, 65534, 65534);
      expect(debugged(args).debug).toMatch(/answering in-process: the socket belongs to another user/);
      fs.chownSync(place.socketPath, 0, 0);
    }
  }, 60_000);

  it('a server for another index or resolving another config is not used', async () => {
    const args = ['search', 'reset password', ...kbArgs.lexical];
    const local = groove([...args, '--no-server']);
    // The hybrid index's server, its socket moved to the lexical index's place: it refuses the request.
    await startServe(kbArgs.hybrid);
    fs.renameSync(placeOf('hybrid').socketPath, placeOf('lexical').socketPath);
    const other = debugged(args);
    expect(other.debug).toMatch(/the server refused: this server serves another index/);
    expect(other.stdout).toBe(local.stdout);
    fs.rmSync(placeOf('lexical').socketPath);
    // The same index served with a groove.toml that changes the default limit: the CLI without it answers itself.
    const toml = path.join(workDir, 'limit-1.toml');
    fs.writeFileSync(toml, '[search]\nlimit = 1\n');
    await startServe([...kbArgs.lexical, '--config', toml]);
    const differing = debugged(args);
    expect(differing.debug).toMatch(/the server refused: this server resolved another config/);
    expect(differing.stdout).toBe(local.stdout);
    expect((JSON.parse(local.stdout) as { results: unknown[] }).results.length).toBeGreaterThan(1);
    // With the same --config, the server answers, with its one result.
    const same = debugged([...args, '--config', toml]);
    expect(same.debug).toContain(SERVED);
    expect((JSON.parse(same.stdout) as { results: unknown[] }).results).toHaveLength(1);
  }, 60_000);

  it('a server that accepts but never answers costs the deadline, then the CLI answers in-process', async () => {
    const place = placeOf('lexical');
    fs.mkdirSync(place.dir, { recursive: true, mode: 0o700 });
    fs.rmSync(place.socketPath, { force: true }); // an earlier test's server was SIGKILLed
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(place.socketPath, () => resolve()));
    fs.chmodSync(place.socketPath, 0o600);
    try {
      const args = ['search', 'reset password', ...kbArgs.lexical];
      const run = debugged(args, { GROOVE_SERVER_ANSWER_MS: '300' });
      expect(run.debug).toMatch(/answering in-process: no answer in time/);
      expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual(
        groove([...args, '--no-server']),
      );
    } finally {
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 60_000);
});
