// `npm run measure:install`: what installing groove costs a user. Packs this checkout (`npm pack`, which builds),
// installs the tarball globally into an empty prefix with an empty npm cache (every byte comes from the
// registry, as on a new machine), and reports the installed size, the time the install took, npm's warnings, the
// largest packages, and whether the installed `groove` indexes and searches (lexical, offline).
// Usage: tsx scripts/install-size.ts [--baseline FILE.tgz] [--tarball FILE.tgz] [--with PKG@VERSION]... [--json]
//   --baseline  also measure this tarball first, in the same run (before/after on the same machine and network)
//   --tarball   measure this tarball instead of packing the checkout
//   --with      install these packages beside groove (e.g. the model runtime) in an extra measurement
// ONNXRUNTIME_NODE_INSTALL=skip is set for every install: onnxruntime-node's install script otherwise downloads
// optional GPU libraries from api.nuget.org, which many machines cannot reach (the install then fails).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const MIB = 1024 * 1024;

interface Measurement {
  label: string;
  tarball: string;
  extra: string[];
  installed: boolean;
  seconds: number;
  sizeMiB: number;
  warnings: string[];
  largest: { name: string; sizeMiB: number }[];
  lexicalWorks: boolean;
  error: string | null;
}

function parseArgs(argv: string[]) {
  const options = { baseline: null as string | null, tarball: null as string | null, with: [] as string[] };
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--baseline') options.baseline = path.resolve(value());
    else if (arg === '--tarball') options.tarball = path.resolve(value());
    else if (arg === '--with') options.with.push(value());
    else if (arg === '--json') json = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  return { ...options, json };
}

/** This process's environment without what `npm run` adds (npm_*): each install sees only its own flags. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...cleanEnv(), npm_config_update_notifier: 'false', ONNXRUNTIME_NODE_INSTALL: 'skip', ...env },
    maxBuffer: 64 * MIB,
    timeout: 900_000,
  });
  return { code: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** Bytes on disk under `target` (allocated blocks, as `du` counts them), links not followed. */
function diskBytes(target: string): number {
  const stat = fs.lstatSync(target);
  if (!stat.isDirectory()) return stat.blocks * 512;
  let total = stat.blocks * 512;
  for (const name of fs.readdirSync(target)) total += diskBytes(path.join(target, name));
  return total;
}

/** The packages under a node_modules folder (scoped ones by their full name), largest first. */
function largestPackages(nodeModules: string, count: number): { name: string; sizeMiB: number }[] {
  if (!fs.existsSync(nodeModules)) return [];
  const packages: { name: string; bytes: number }[] = [];
  for (const name of fs.readdirSync(nodeModules)) {
    const full = path.join(nodeModules, name);
    if (name.startsWith('@') && fs.statSync(full).isDirectory()) {
      for (const inner of fs.readdirSync(full))
        packages.push({ name: `${name}/${inner}`, bytes: diskBytes(path.join(full, inner)) });
    } else if (!name.startsWith('.')) packages.push({ name, bytes: diskBytes(full) });
  }
  return packages
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, count)
    .map((p) => ({ name: p.name, sizeMiB: round(p.bytes / MIB) }));
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function packCheckout(into: string): string {
  const packed = run(NPM, ['pack', '--json', '--pack-destination', into], repoRoot);
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
  const filename = (JSON.parse(packed.stdout) as { filename: string }[])[0]?.filename;
  if (!filename) throw new Error('npm pack named no file');
  return path.join(into, filename);
}

/** Index and search the sample KB with the installed command, lexical-only, offline. */
function lexicalSmoke(bin: string, workDir: string): boolean {
  const kb = path.join(workDir, 'notes');
  fs.cpSync(path.join(repoRoot, 'examples/sample-kb'), kb, { recursive: true });
  const env = { GROOVE_OFFLINE: '1', HOME: workDir, XDG_CACHE_HOME: path.join(workDir, 'xdg-cache') };
  const where = ['--kb-path', kb, '--db-path', path.join(workDir, 'notes.groove.db')];
  const index = run(bin, ['index', ...where, '--model', 'none', '--quiet'], workDir, env);
  if (index.code !== 0) return false;
  const search = run(bin, ['search', 'reset password', ...where, '--format', 'json'], workDir, env);
  if (search.code !== 0) return false;
  return (JSON.parse(search.stdout) as { results: unknown[] }).results.length > 0;
}

function measure(label: string, tarball: string, extra: string[], workRoot: string): Measurement {
  const workDir = path.join(workRoot, label);
  const prefix = path.join(workDir, 'prefix');
  fs.mkdirSync(prefix, { recursive: true });
  const args = ['install', '-g', '--prefix', prefix, '--cache', path.join(workDir, 'npm-cache')];
  args.push('--no-audit', '--no-fund', tarball, ...extra);
  process.stderr.write(
    `measure:install: installing ${label} (${path.basename(tarball)} ${extra.join(' ')})…\n`,
  );
  const started = performance.now();
  const installed = run(NPM, args, workDir);
  const seconds = round((performance.now() - started) / 1000);
  const warnings = `${installed.stdout}\n${installed.stderr}`
    .split('\n')
    .filter((line) => /^npm warn/i.test(line));
  const libDir = path.join(prefix, process.platform === 'win32' ? '' : 'lib', 'node_modules');
  const bin = path.join(prefix, process.platform === 'win32' ? 'groove.cmd' : 'bin/groove');
  const ok = installed.code === 0;
  const result: Measurement = {
    label,
    tarball,
    extra,
    installed: ok,
    seconds,
    sizeMiB: round(diskBytes(prefix) / MIB),
    warnings,
    largest: largestPackages(path.join(libDir, 'groove-kb', 'node_modules'), 8),
    lexicalWorks: ok && lexicalSmoke(bin, workDir),
    error: ok ? null : installed.stderr.split('\n').slice(-15).join('\n'),
  };
  fs.rmSync(path.join(workDir, 'npm-cache'), { recursive: true, force: true });
  return result;
}

function printText(results: Measurement[]): void {
  for (const r of results) {
    const what = [path.basename(r.tarball), ...r.extra].join(' + ');
    console.log(`${r.label}: ${what}`);
    if (!r.installed) {
      console.log(`  install FAILED after ${r.seconds} s:\n${r.error}`);
      continue;
    }
    console.log(`  installed size ${r.sizeMiB} MiB, install time ${r.seconds} s (empty npm cache)`);
    console.log(`  npm warnings: ${r.warnings.length === 0 ? 'none' : ''}`);
    for (const warning of r.warnings) console.log(`    ${warning}`);
    console.log(`  lexical index + search with the installed groove: ${r.lexicalWorks ? 'ok' : 'FAILED'}`);
    console.log(`  largest packages: ${r.largest.map((p) => `${p.name} ${p.sizeMiB} MiB`).join(', ')}`);
  }
}

function main(): void {
  const options = parseArgs(process.argv.slice(2));
  const workRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-install-size-'));
  try {
    const current = options.tarball ?? packCheckout(workRoot);
    const results: Measurement[] = [];
    if (options.baseline) results.push(measure('baseline', options.baseline, [], workRoot));
    results.push(measure('checkout', current, [], workRoot));
    if (options.with.length > 0) results.push(measure('checkout+with', current, options.with, workRoot));
    if (options.json) console.log(JSON.stringify(results, null, 2));
    else printText(results);
  } finally {
    fs.rmSync(workRoot, { recursive: true, force: true });
  }
}

main();
