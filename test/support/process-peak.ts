// Watches a process and all its descendants from outside (Linux /proc), with a folder: the peak RSS of the whole
// tree, of its largest single process, and the peak size of the folder's files (without /proc, only the folder).
// Used by the extraction-bound tests and bench/extract-bounds.ts. Test-only.
import fs from 'node:fs';
import path from 'node:path';

export interface Peaks {
  /** Largest sum of RSS over the process and its descendants seen at one sample. */
  treeRssBytes: number;
  /** Largest RSS of any one process of the tree. */
  processRssBytes: number;
  /** Largest total size of the files under the watched folder. */
  folderBytes: number;
  samples: number;
}

export const canWatchProcesses = fs.existsSync('/proc/self/statm');

const PAGE_BYTES = 4096;

function parentOf(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields after its closing parenthesis.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(rest[1]);
  } catch {
    return null;
  }
}

function rssOf(pid: number): number {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
  } catch {
    return 0;
  }
}

/** The process and every descendant alive now. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const parent = parentOf(pid);
    if (parent === null) continue;
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const tree: number[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    tree.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Total size of the regular files under `folder` (0 when it is gone). */
export function folderBytes(folder: string): number {
  let total = 0;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(folder, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) total += folderBytes(full);
    else if (entry.isFile()) {
      try {
        total += fs.statSync(full).size;
      } catch {
        // removed meanwhile
      }
    }
  }
  return total;
}

/** Sample `root`'s process tree and `folder` every `everyMs` until stop() is called. */
export function watchPeaks(root: number, folder: string, everyMs = 20): { stop(): Peaks } {
  const peaks: Peaks = { treeRssBytes: 0, processRssBytes: 0, folderBytes: 0, samples: 0 };
  const sample = () => {
    let tree = 0;
    for (const pid of canWatchProcesses ? processTree(root) : []) {
      const rss = rssOf(pid);
      tree += rss;
      peaks.processRssBytes = Math.max(peaks.processRssBytes, rss);
    }
    peaks.treeRssBytes = Math.max(peaks.treeRssBytes, tree);
    peaks.folderBytes = Math.max(peaks.folderBytes, folderBytes(folder));
    peaks.samples++;
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peaks;
    },
  };
}
