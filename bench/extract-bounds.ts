// What one hostile file costs `groove index`: for each case a KB holding only that file is indexed by the built CLI
// in a fresh process, with its own temp folder (TMPDIR); the process and its descendants are sampled from /proc
// every 20 ms. Reports the peak RSS of the whole process tree and of its largest process, the peak size of the
// temp folder and what is left in it afterwards, the wall time, and the line groove printed about the file.
// Cases (built in memory, test/support/hostile-files.ts): a PDF whose content stream inflates to --inflate MiB of
// zeros; a --js-mib MiB JavaScript file on one line with the `code` parser; an XLSX with an entry of --inflate MiB
// hidden from its central directory. Linux only.
// Run: npm run bench:extract [-- --groove path/to/bin/groove.js] [--cases pdf,js,xlsx] [--inflate 2048]
//   [--js-mib 20] [--timeout 30]   (--groove measures another checkout's build; default: this one's)

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { makeHiddenEntryXlsx, makeInflatingPdf, makeSingleLineJs } from '../test/support/hostile-files.js';
import { canWatchProcesses, folderBytes, watchPeaks } from '../test/support/process-peak.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    groove: { type: 'string', default: path.join(repoRoot, 'bin/groove.js') },
    cases: { type: 'string', default: 'pdf,js,xlsx' },
    inflate: { type: 'string', default: '2048' },
    'js-mib': { type: 'string', default: '20' },
    timeout: { type: 'string', default: '30' },
  },
});
const MIB = 1024 * 1024;
const inflateBytes = Number(values.inflate) * MIB;

interface Case {
  file: string;
  parsers: string;
  make(): Promise<Buffer | string>;
}

const CASES: Record<string, Case> = {
  pdf: { file: 'bomb.pdf', parsers: '"md", "pdf"', make: async () => makeInflatingPdf(inflateBytes) },
  js: {
    file: 'minified.js',
    parsers: '"md", "code"',
    make: async () => makeSingleLineJs(Number(values['js-mib']) * MIB),
  },
  xlsx: { file: 'hidden.xlsx', parsers: '"md", "xlsx"', make: () => makeHiddenEntryXlsx(inflateBytes) },
};

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

async function runCase(name: string, spec: Case) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `groove-bench-extract-${name}-`));
  const kb = path.join(root, 'kb');
  const tmp = path.join(root, 'tmp');
  const home = path.join(root, 'home');
  for (const folder of [kb, tmp, home]) fs.mkdirSync(folder);
  const content = await spec.make();
  fs.writeFileSync(path.join(kb, spec.file), content);
  fs.writeFileSync(
    path.join(root, 'groove.toml'),
    `model = "none"\n[parsers]\nenabled = [${spec.parsers}]\ntimeout_seconds = ${values.timeout}\n`,
  );
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, 'config'),
    XDG_CACHE_HOME: path.join(home, 'cache'),
    XDG_DATA_HOME: path.join(home, 'data'),
    XDG_STATE_HOME: path.join(home, 'state'),
    TMPDIR: tmp,
    GROOVE_OFFLINE: '1',
  };
  const args = [values.groove, 'index', '--kb-path', kb, '--db-path', path.join(root, 'index.db')];
  const startedAt = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const watch = watchPeaks(child.pid!, tmp);
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => {
    stderr += data.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', (exit) => resolve(exit)));
  const wallMs = performance.now() - startedAt;
  const peaks = watch.stop();
  const tempLeft = folderBytes(tmp);
  fs.rmSync(root, { recursive: true, force: true });
  const line = stderr.split('\n').find((text) => text.includes(spec.file)) ?? '(no line about the file)';
  return {
    case: name,
    fileBytes: Buffer.byteLength(content),
    exitCode: code,
    peakTreeRss: mb(peaks.treeRssBytes),
    peakProcessRss: mb(peaks.processRssBytes),
    peakTemp: mb(peaks.folderBytes),
    tempLeft: mb(tempLeft),
    wallSeconds: Number((wallMs / 1000).toFixed(1)),
    line: line.slice(0, 240),
  };
}

async function main(): Promise<void> {
  if (!canWatchProcesses) throw new Error('bench/extract-bounds.ts reads /proc: Linux only');
  console.log(`groove: ${values.groove}`);
  for (const name of values.cases.split(',')) {
    const spec = CASES[name];
    if (!spec) throw new Error(`unknown case ${name}; cases: ${Object.keys(CASES).join(', ')}`);
    console.log(JSON.stringify(await runCase(name, spec)));
  }
}

await main();
