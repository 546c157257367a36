// The search parameters shown three ways — `groove search --help` (in-process), the MCP `search` tool's JSON
// schema (listed by the SDK's own client) and docs/configuration.md — say the same as the table: every
// parameter present, with the same description, default and range; and the comparison catches a difference.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSearchParamsSection, SECTION_END, SECTION_START } from '../../scripts/search-params-doc.js';
import type { KnowledgeBase } from '../../src/app/knowledge-base.js';
import { runCli } from '../../src/cli/main.js';
import {
  type ConnectedClient,
  connectInMemory,
  createServeKb,
  openTestKb,
  type ServeKb,
} from '../support/mcp-fixture.js';
import {
  docsSurface,
  expectedFacts,
  helpSurface,
  mcpSurface,
  PARAMS,
  type Surface,
  surfaceMismatches,
} from '../support/search-param-surfaces.js';

const docPath = path.resolve(import.meta.dirname, '../../docs/configuration.md');

interface JsonSchema {
  properties?: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties?: unknown;
}

async function searchHelp(): Promise<string> {
  let stdout = '';
  const code = await runCli(['search', '--help'], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: () => true },
    env: {},
    cwd: process.cwd(),
  });
  expect(code).toBe(0);
  return stdout;
}

let serveKb: ServeKb;
let kb: KnowledgeBase;
let connected: ConnectedClient;
let help: string;
let schema: JsonSchema;
let doc: string;

beforeAll(async () => {
  serveKb = createServeKb();
  kb = openTestKb(serveKb);
  connected = await connectInMemory(kb);
  const { tools } = await connected.client.listTools();
  schema = tools.find((t) => t.name === 'search')!.inputSchema as JsonSchema;
  help = await searchHelp();
  doc = fs.readFileSync(docPath, 'utf8');
});

afterAll(async () => {
  await connected?.close();
  await kb?.close();
  serveKb?.cleanup();
});

const surfaces = (): Record<string, Surface> => ({
  help: helpSurface(help),
  mcp: mcpSurface(schema),
  docs: docsSurface(doc, SECTION_START, SECTION_END),
});

describe('search parameters on every surface', () => {
  it('help, MCP schema and docs all show every parameter with the table’s description, default and range', () => {
    const found = surfaces();
    for (const surface of Object.values(found)) expect(surface.size).toBe(PARAMS.length);
    expect(surfaceMismatches(expectedFacts(), found)).toEqual([]);
  });

  it('the docs section is exactly what the generator renders', () => {
    const start = doc.indexOf(SECTION_START);
    const end = doc.indexOf(SECTION_END) + SECTION_END.length;
    expect(start).toBeGreaterThan(0);
    expect(doc.slice(start, end)).toBe(renderSearchParamsSection());
  });

  it('the MCP schema is strict, requires only the query and carries the numeric and list bounds', () => {
    expect(schema.required).toEqual(['query']);
    expect(schema.additionalProperties).toBe(false);
    for (const p of PARAMS) {
      const property = schema.properties?.[p.wire] ?? {};
      if (p.type === 'integer' || p.type === 'number') {
        expect(property.type, p.wire).toBe(p.type);
        expect(property.minimum, p.wire).toBe(p.min);
        expect(property.maximum, p.wire).toBe(p.max);
      }
      if (p.type === 'stringList') {
        expect(property.type, p.wire).toBe('array');
        expect(property.maxItems, p.wire).toBe(p.maxEntries);
        expect(property.minItems, p.wire).toBe(p.minEntries);
      }
      if (p.type === 'boolean') expect(property.type, p.wire).toBe('boolean');
    }
  });

  it('help has the --no- form exactly for the parameters that declare one', () => {
    for (const p of PARAMS) {
      if (p.cli.kind !== 'option') continue;
      const negation = `--no-${p.cli.flag.slice(2)}`;
      expect(help.includes(`  ${negation} `), negation).toBe(p.cli.negation !== undefined);
    }
  });
});

describe('the comparison can fail', () => {
  it('reports a parameter missing from the docs', () => {
    const withoutLimit = doc
      .split('\n')
      .filter((line) => !line.startsWith('| `limit` |'))
      .join('\n');
    const found = { ...surfaces(), docs: docsSurface(withoutLimit, SECTION_START, SECTION_END) };
    expect(surfaceMismatches(expectedFacts(), found)).toEqual(['docs: limit is missing']);
  });

  it('reports a changed default in the help, a changed description in the schema and an extra docs row', () => {
    const edited = help.replace(/default 5,(\s+)from \[search\] limit/, 'default 10,$1from [search] limit');
    const mmr = schema.properties!.mmr_lambda!;
    const renamed = {
      properties: { ...schema.properties, mmr_lambda: { ...mmr, description: 'another text (0-1)' } },
    };
    const extraRow = doc.replace(SECTION_END, `| \`no_such\` | | | | — | — | — | x |\n${SECTION_END}`);
    const found = surfaceMismatches(expectedFacts(), {
      help: helpSurface(edited),
      mcp: mcpSurface(renamed),
      docs: docsSurface(extraRow, SECTION_START, SECTION_END),
    });
    expect(found).toEqual([
      'help: limit defaultValue is "10", the table says "5"',
      'mcp: mmr_lambda description is "another text", the table says "MMR relevance/diversity trade-off; lower is more diverse"',
      'mcp: mmr_lambda defaultValue is "", the table says "0.7"',
      'mcp: mmr_lambda defaultFrom is "", the table says "[search.mmr] lambda"',
      'docs: no_such is not in the table',
    ]);
  });
});
