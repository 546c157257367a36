// `groove index` (the built CLI) on one hostile file at a time, its process tree and its temp folder sampled from
// /proc: a PDF whose content stream inflates to 2 GiB is stopped at the memory bound; a 4 MiB single-line
// JavaScript file is chunked as plain text without a syntax tree; an XLSX hiding a 2 GiB entry from its central
// directory is read from what the directory lists, writing nothing to temp. The bounds are asserted loosely
// (bench/extract-bounds.ts reports the numbers); nothing is left in the temp folder.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeHiddenEntryXlsx, makeInflatingPdf, makeSingleLineJs } from '../support/hostile-files.js';
import { canWatchProcesses, folderBytes, type Peaks, watchPeaks } from '../support/process-peak.js';
import { binPath } from '../support/run-bin.js';
import { createTempKb, type TempKb } from '../support/temp-kb.js';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

let kb: TempKb;
afterEach(() => kb.cleanup());

/** `groove index` over a KB holding `file`, with a private TMPDIR and home; its peaks and stderr. */
async function indexOne(
  file: string,
  content: Buffer | string,
  parsers: string,
): Promise<{ code: number | null; stderr: string; peaks: Peaks; tempLeft: number }> {
  kb = createTempKb({ [file]: content });
  const tmp = path.join(kb.root, 'tmp');
  const home = path.join(kb.root, 'home');
  fs.mkdirSync(tmp);
  fs.mkdirSync(home);
  fs.writeFileSync(
    path.join(kb.root, 'groove.toml'),
    `model = "none"\n[parsers]\nenabled = [${parsers}]\ntimeout_seconds = 60\nmax_memory = "256MiB"\n`,
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
  const args = [binPath, 'index', '--kb-path', kb.kbPath, '--db-path', kb.dbPath];
  const child = spawn(process.execPath, args, { cwd: kb.root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const watch = watchPeaks(child.pid!, tmp, 10);
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => {
    stderr += data.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stderr, peaks: watch.stop(), tempLeft: folderBytes(tmp) + fs.readdirSync(tmp).length };
}

describe.runIf(canWatchProcesses)('one hostile file costs groove index a bounded amount', () => {
  it('stops a PDF whose content stream inflates to 2 GiB at the memory bound', async () => {
    const run = await indexOne('bomb.pdf', makeInflatingPdf(2 * GIB), '"md", "pdf"');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'skipped bomb.pdf: extracting it took more than 256 MiB of memory and was stopped (raise [parsers] max_memory if the file is sound)',
    );
    expect(run.peaks.processRssBytes).toBeLessThan(256 * MIB + 192 * MIB);
    expect(run.peaks.treeRssBytes).toBeLessThan(GIB);
    expect(run.tempLeft).toBe(0);
  }, 120_000);

  it('chunks a 4 MiB single-line JavaScript file as plain text, without a syntax tree', async () => {
    const run = await indexOne('minified.js', makeSingleLineJs(4 * MIB), '"md", "code"');
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('skipped');
    const document = kb.documents().get('minified.js');
    expect(document?.tags).toEqual(expect.arrayContaining(['code', 'lang:javascript', 'parse:too-large']));
    expect(run.peaks.treeRssBytes).toBeLessThan(GIB);
    expect(run.tempLeft).toBe(0);
  }, 120_000);

  it('reads an XLSX with a 2 GiB entry hidden from its directory without writing it to temp', async () => {
    const run = await indexOne('hidden.xlsx', await makeHiddenEntryXlsx(2 * GIB), '"md", "xlsx"');
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('skipped');
    expect(
      kb
        .documents()
        .get('hidden.xlsx')
        ?.chunks.map((chunk) => chunk.content),
    ).toEqual([expect.stringContaining('quokka\t1')]);
    expect(run.peaks.folderBytes).toBeLessThan(MIB);
    expect(run.peaks.treeRssBytes).toBeLessThan(GIB);
    expect(run.tempLeft).toBe(0);
  }, 120_000);
});
