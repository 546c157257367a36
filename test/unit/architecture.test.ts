// Checks the layering table and the feature rules of docs/ARCHITECTURE.md by scanning every import in src/ and bench/.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const srcRoot = path.resolve(import.meta.dirname, '../../src');
const benchRoot = path.resolve(import.meta.dirname, '../../bench');

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

/** Imports of one file; `file` is relative to src/ (bench files come out as `../bench/x.ts`). */
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

/** The file an import names, relative to src/ with a .ts ending; null for a package. */
function resolvedTarget(imp: ImportLine): string | null {
  if (!imp.target.startsWith('.')) return null;
  const resolved = path.relative(srcRoot, path.resolve(srcRoot, path.dirname(imp.file), imp.target));
  return resolved.replace(/\.js$/, '.ts');
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
  'app/adapters.ts',
  'app/indexing/index-database.ts',
  'app/indexing/indexer-ports.ts',
  'app/indexing/feedback-database.ts',
  'app/indexing/shared-index.ts',
  'app/indexing/cached-working-copy.ts',
  'app/embedding/embedder-factory.ts',
  'app/embedding/model-catalog.ts',
  'app/embedding/model-files.ts',
  'app/doctor/doctor-database.ts',
  'app/search/search-session.ts',
  'app/search/vector-snapshots.ts',
  'app/search/word-snapshots.ts',
  'app/search/index-learned-signals.ts',
  'app/browse/get-document.ts',
  'app/serve/live-sync.ts',
  'app/service/service.ts',
  'app/validate/schema-file.ts',
  'app/usage/kb-usage.ts',
]);

/**
 * The feature folders of src/app and their rank. A feature imports another only through that feature's
 * index.ts and only downwards (lower rank), so: serve, kbs → facade → eval/tune/browse/doctor → search/golden/validate/usage → indexing →
 * embedding. The facade is the files directly in src/app; app/index.ts is the edges' door and imports any door.
 */
const FEATURE_RANK: Readonly<Record<string, number>> = {
  embedding: 0,
  indexing: 1,
  search: 2,
  golden: 2,
  validate: 2,
  usage: 2,
  eval: 3,
  tune: 3,
  browse: 3,
  doctor: 3,
  service: 3,
  facade: 4,
  serve: 5,
  kbs: 5,
};
const APP_DOOR = 'app/index.ts';
/** The cold-start door and the one edge file that may use it (a cold search starts its model thread early). */
const PRESTART_DOOR = 'app/prestart.ts';
const PRESTART_USER = 'cli/search-prestart.ts';

/** The feature a src-relative path belongs to: a folder name, 'facade', 'door' (app/index.ts) or null. */
function featureOf(relFromSrc: string): string | null {
  const parts = relFromSrc.split(path.sep);
  if (parts[0] !== 'app') return null;
  if (relFromSrc === APP_DOOR || relFromSrc === PRESTART_DOOR) return 'door';
  return parts.length > 2 ? parts[1]! : 'facade';
}

/** Imports inside src/app that bypass a feature's index.ts, go upwards or sideways, or use the edges' door. */
function featureRuleViolations(lines: readonly ImportLine[]): string[] {
  const found: string[] = [];
  for (const line of lines) {
    const from = featureOf(line.file);
    const target = resolvedTarget(line);
    const to = target === null ? null : featureOf(target);
    if (from === null || to === null || from === to) continue;
    const where = `${line.file} → ${target}`;
    if (to === 'door') found.push(`${where}: ${target} is for cli, mcp and bench`);
    else if (to !== 'facade' && target !== `app/${to}/index.ts`)
      found.push(`${where}: not through ${to}/index.ts`);
    else if (from !== 'door' && FEATURE_RANK[to]! >= FEATURE_RANK[from]!)
      found.push(`${where}: ${from} may not import ${to}`);
  }
  return found;
}

/** Imports from an edge or bench into src/app that do not go through app/index.ts. */
function edgeRuleViolations(lines: readonly ImportLine[]): string[] {
  return lines
    .filter((line) => EDGES.has(layerOf(line.file)) || line.file.startsWith(`..${path.sep}bench`))
    .filter((line) => {
      const target = resolvedTarget(line);
      if (target === null || featureOf(target) === null || target === APP_DOOR) return false;
      return !(target === PRESTART_DOOR && line.file === PRESTART_USER);
    })
    .map((line) => `${line.file} → ${resolvedTarget(line)}: use app/index.ts`);
}

const ADAPTERS = new Set(['store', 'models', 'fs']);
/** The edges: the CLI, the MCP server, the CLI's local socket and the status page. */
const EDGES = new Set(['cli', 'mcp', 'local-socket', 'status-page']);
/**
 * The pure folders and their rank: each imports only pure folders of its own rank or below (plus types and
 * errors), so core → document → rank → measure.
 */
const PURE_RANK: Readonly<Record<string, number>> = { core: 0, document: 1, rank: 2, measure: 3 };
const isPure = (layer: string | null): layer is string => layer !== null && layer in PURE_RANK;
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

/** Imports of a pure folder that reach a higher pure folder, anything impure, an I/O module or a driver. */
function pureRuleViolations(lines: readonly ImportLine[]): string[] {
  return lines
    .filter((imp) => {
      const from = layerOf(imp.file);
      if (!isPure(from)) return false;
      const to = targetLayer(imp);
      if (to === null)
        return NODE_IO.test(imp.target) || /sqlite|onnx|transformers|chokidar/.test(imp.target);
      if (to === 'types' || to === 'errors') return false;
      return !isPure(to) || PURE_RANK[to]! > PURE_RANK[from]!;
    })
    .map((imp) => `${imp.file} → ${imp.target}`);
}

const imports = listSourceFiles(srcRoot).flatMap(readImports);
const readSource = (relFromSrc: string) => fs.readFileSync(path.join(srcRoot, relFromSrc), 'utf8');
const benchImports = listSourceFiles(benchRoot).flatMap(readImports);

describe('architecture: the layering table', () => {
  it('finds the source tree', () => {
    expect(imports.length).toBeGreaterThan(50);
  });

  it('each pure folder imports only pure folders of its rank or below, types and errors, and no I/O or driver', () => {
    expect(pureRuleViolations(imports)).toEqual([]);
  });

  it('the pure-folder rule catches violations (the check can fail)', () => {
    const line = (file: string, target: string): ImportLine => ({ file, target, typeOnly: true });
    expect(
      pureRuleViolations([
        line('rank/a.ts', '../document/b.js'),
        line('measure/a.ts', '../rank/b.js'),
        line('core/a.ts', '../types.js'),
      ]),
    ).toEqual([]);
    expect(
      pureRuleViolations([
        line('rank/a.ts', '../measure/b.js'),
        line('core/a.ts', '../document/b.js'),
        line('document/a.ts', '../store/b.js'),
        line('measure/a.ts', 'node:fs'),
      ]),
    ).toEqual([
      'rank/a.ts → ../measure/b.js',
      'core/a.ts → ../document/b.js',
      'document/a.ts → ../store/b.js',
      'measure/a.ts → node:fs',
    ]);
  });

  it('pure folders never touch process', () => {
    const offenders = Object.keys(PURE_RANK)
      .flatMap((folder) => listSourceFiles(path.join(srcRoot, folder)))
      .filter((file) => /\bprocess\./.test(fs.readFileSync(file, 'utf8').replace(/\/\/.*$/gm, '')));
    expect(offenders).toEqual([]);
  });

  it('adapters (store, models, fs) import neither app, cli, mcp nor each other', () => {
    const bad = imports.filter((imp) => {
      const from = layerOf(imp.file);
      const to = targetLayer(imp);
      if (!ADAPTERS.has(from) || to === null) return false;
      return to === 'app' || EDGES.has(to) || (ADAPTERS.has(to) && to !== from);
    });
    expect(bad).toEqual([]);
  });

  it('app imports no edge, and only the composition root builds adapters', () => {
    const bad = imports.filter((imp) => {
      if (layerOf(imp.file) !== 'app') return false;
      const to = targetLayer(imp);
      if (to !== null && EDGES.has(to)) return true;
      return to !== null && ADAPTERS.has(to) && !imp.typeOnly && !COMPOSITION_ROOT.has(imp.file);
    });
    expect(bad).toEqual([]);
  });

  it('only store/postgres loads the PostgreSQL driver, and the app loads that folder only lazily', () => {
    const inPostgres = (file: string) => file.split(path.sep).slice(0, 2).join('/') === 'store/postgres';
    const driver = imports.filter((imp) => /^(pg|pgvector)(\/|$)/.test(imp.target) && !inPostgres(imp.file));
    expect(driver).toEqual([]);
    const staticUse = imports.filter((imp) => {
      const target = resolvedTarget(imp);
      if (target === null || !inPostgres(target) || inPostgres(imp.file)) return false;
      return !imp.typeOnly && !new RegExp(`import\\(\\s*'${imp.target}'`).test(readSource(imp.file));
    });
    expect(staticUse).toEqual([]);
    // The folder stays an adapter: it reaches the rest of store/ for nothing.
    const reachOut = imports.filter((imp) => {
      const target = resolvedTarget(imp);
      return inPostgres(imp.file) && target !== null && layerOf(target) === 'store' && !inPostgres(target);
    });
    expect(reachOut).toEqual([]);
  });

  it('the edges reach storage, models, files and pure code only through the app facade', () => {
    const bad = imports.filter((imp) => {
      const to = targetLayer(imp);
      return EDGES.has(layerOf(imp.file)) && (isPure(to) || (to !== null && ADAPTERS.has(to)));
    });
    expect(bad).toEqual([]);
  });

  it('the edges and bench import src/app only through app/index.ts', () => {
    expect(benchImports.length).toBeGreaterThan(10);
    expect(edgeRuleViolations([...imports, ...benchImports])).toEqual([]);
  });

  it('a feature imports another only through its index.ts, downwards', () => {
    expect(featureRuleViolations(imports)).toEqual([]);
  });

  it('every feature folder has a rank and a front door', () => {
    const folders = fs
      .readdirSync(path.join(srcRoot, 'app'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.length).toBeGreaterThan(5);
    for (const folder of folders) {
      expect(FEATURE_RANK[folder], folder).toBeTypeOf('number');
      expect(fs.existsSync(path.join(srcRoot, 'app', folder, 'index.ts')), folder).toBe(true);
    }
  });

  it('the feature and edge rules catch violations (the checks can fail)', () => {
    const line = (file: string, target: string): ImportLine => ({ file, target, typeOnly: false });
    expect(
      featureRuleViolations([
        line('app/eval/a.ts', '../search/index.js'),
        line('app/serve/a.ts', '../knowledge-base.js'),
        line('app/search/a.ts', './b.js'),
      ]),
    ).toEqual([]);
    expect(
      featureRuleViolations([
        line('app/eval/a.ts', '../search/searcher.js'),
        line('app/search/a.ts', '../eval/index.js'),
        line('app/search/a.ts', '../golden/index.js'),
        line('app/knowledge-base.ts', './serve/index.js'),
        line('app/tune/a.ts', '../index.js'),
      ]),
    ).toEqual([
      'app/eval/a.ts → app/search/searcher.ts: not through search/index.ts',
      'app/search/a.ts → app/eval/index.ts: search may not import eval',
      'app/search/a.ts → app/golden/index.ts: search may not import golden',
      'app/knowledge-base.ts → app/serve/index.ts: facade may not import serve',
      'app/tune/a.ts → app/index.ts: app/index.ts is for cli, mcp and bench',
    ]);
    expect(
      edgeRuleViolations([
        line('cli/a.ts', '../app/index.js'),
        line('mcp/a.ts', '../app/search/index.js'),
        line('../bench/a.ts', '../src/app/knowledge-base.js'),
        line('cli/search-prestart.ts', '../app/prestart.js'),
        line('cli/cmd-search.ts', '../app/prestart.js'),
      ]),
    ).toEqual([
      'mcp/a.ts → app/search/index.ts: use app/index.ts',
      '../bench/a.ts → app/knowledge-base.ts: use app/index.ts',
      'cli/cmd-search.ts → app/prestart.ts: use app/index.ts',
    ]);
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
