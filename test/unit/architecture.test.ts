// Checks the layering table of docs/DESIGN.md by scanning every import in src/.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const srcRoot = path.resolve(import.meta.dirname, '../../src');

interface ImportLine {
  file: string;
  target: string;
  typeOnly: boolean;
}

function listSourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listSourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function readImports(file: string): ImportLine[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: ImportLine[] = [];
  const pattern = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+'([^']+)'/gms;
  for (const match of text.matchAll(pattern)) {
    found.push({ file: path.relative(srcRoot, file), target: match[3]!, typeOnly: Boolean(match[2]) });
  }
  for (const match of text.matchAll(/import\(\s*'([^']+)'\s*\)/g)) {
    found.push({ file: path.relative(srcRoot, file), target: match[1]!, typeOnly: false });
  }
  return found;
}

function layerOf(relFromSrc: string): string {
  const first = relFromSrc.split(path.sep)[0]!;
  return first.replace(/\.(ts|js)$/, '');
}

function targetLayer(imp: ImportLine): string | null {
  if (!imp.target.startsWith('.')) return null;
  const resolved = path.relative(srcRoot, path.resolve(srcRoot, path.dirname(imp.file), imp.target));
  return layerOf(resolved);
}

/** The app files allowed to construct concrete adapters (the composition root). */
const COMPOSITION_ROOT = new Set([
  'app/knowledge-base.ts',
  'app/index-database.ts',
  'app/indexer-ports.ts',
  'app/embedder-factory.ts',
  'app/search-session.ts',
  'app/model-catalog.ts',
  'app/get-document.ts',
  'app/live-sync.ts',
  'app/feedback-database.ts',
]);

const ADAPTERS = new Set(['store', 'models', 'fs']);
const NODE_IO = /^(node:)?(fs|fs\/promises|child_process|net|http|https|os|process|worker_threads)$/;

/** Import cycles (strongly connected groups of two or more files) of a file → imported-files graph. */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, order.get(next)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return cycles;
}

/** The import graph of src/, type-only imports included (a type cycle still ties two modules together). */
function importGraph(lines: readonly ImportLine[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const line of lines) {
    const targets = graph.get(line.file) ?? [];
    graph.set(line.file, targets);
    if (!line.target.startsWith('.')) continue;
    const resolved = path.relative(srcRoot, path.resolve(srcRoot, path.dirname(line.file), line.target));
    targets.push(resolved.replace(/\.js$/, '.ts'));
  }
  return graph;
}

const imports = listSourceFiles(srcRoot).flatMap(readImports);

describe('architecture: the layering table', () => {
  it('finds the source tree', () => {
    expect(imports.length).toBeGreaterThan(50);
  });

  it('core imports only core, types and errors, and no I/O module or driver', () => {
    const bad = imports.filter((imp) => {
      if (layerOf(imp.file) !== 'core') return false;
      const layer = targetLayer(imp);
      if (layer === null)
        return NODE_IO.test(imp.target) || /sqlite|onnx|transformers|chokidar/.test(imp.target);
      return !['core', 'types', 'errors'].includes(layer);
    });
    expect(bad).toEqual([]);
  });

  it('core never touches process', () => {
    const offenders = listSourceFiles(path.join(srcRoot, 'core')).filter((file) =>
      /\bprocess\./.test(fs.readFileSync(file, 'utf8').replace(/\/\/.*$/gm, '')),
    );
    expect(offenders).toEqual([]);
  });

  it('adapters (store, models, fs) import neither app, cli, mcp nor each other', () => {
    const bad = imports.filter((imp) => {
      const from = layerOf(imp.file);
      const to = targetLayer(imp);
      if (!ADAPTERS.has(from) || to === null) return false;
      return ['app', 'cli', 'mcp'].includes(to) || (ADAPTERS.has(to) && to !== from);
    });
    expect(bad).toEqual([]);
  });

  it('app imports no edge, and only the composition root builds adapters', () => {
    const bad = imports.filter((imp) => {
      if (layerOf(imp.file) !== 'app') return false;
      const to = targetLayer(imp);
      if (to === 'cli' || to === 'mcp') return true;
      return to !== null && ADAPTERS.has(to) && !imp.typeOnly && !COMPOSITION_ROOT.has(imp.file);
    });
    expect(bad).toEqual([]);
  });

  it('cli and mcp reach storage, models, files and core only through the app facade', () => {
    const bad = imports.filter((imp) => {
      const from = layerOf(imp.file);
      const to = targetLayer(imp);
      return (
        (from === 'cli' || from === 'mcp') && to !== null && ['core', 'store', 'models', 'fs'].includes(to)
      );
    });
    expect(bad).toEqual([]);
  });

  it('has no import cycles, type-only imports included', () => {
    expect(findCycles(importGraph(imports))).toEqual([]);
  });

  it('finds a cycle when there is one (the check can fail)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
    ]);
    expect(findCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    const fromLines = importGraph([
      { file: 'store/x.ts', target: './y.js', typeOnly: true },
      { file: 'store/y.ts', target: './x.js', typeOnly: false },
    ]);
    expect(findCycles(fromLines)).toEqual([['store/x.ts', 'store/y.ts']]);
  });

  it('nothing but the bin shim calls process.exit', () => {
    const offenders = listSourceFiles(srcRoot).filter((file) =>
      /process\.exit\(/.test(fs.readFileSync(file, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
