// `groove eval golden quote` through the built CLI in an isolated GROOVE_HOME: a KB's own golden set re-anchored
// by quotes into the KB's own folder in groove's data folder (the KB folder untouched), the text and JSON
// reports, the refusal to write over the set it wrote, and eval scoring the new set as the old one.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { type CliSandbox, cliSandbox } from '../support/cli-sandbox.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
let box: CliSandbox;
const groove = (...args: string[]) => box.groove(args);

beforeEach(() => {
  box = cliSandbox('groove-quote-');
});
afterEach(() => box.remove());

const GOLDEN = `queries:
  - id: recovery
    query: "recovery mail does not arrive"
    expected:
      - path: guides/password-reset.md
        heading: When the recovery mail does not arrive
  - id: two-factor
    query: "two-factor authentication reset"
    expected:
      - { path: guides/password-reset.md, heading: Two-factor authentication }
      - { path: guides/password-reset.md, heading: No such section }
`;

describe('groove eval golden quote', () => {
  it('re-anchors the set eval reads into the own folder, lists what it left, and eval scores both alike', () => {
    const kb = path.join(box.root, 'kbs', 'notes');
    fs.cpSync(path.join(repoRoot, 'examples/sample-kb'), kb, { recursive: true });
    fs.writeFileSync(path.join(kb, '.groove-eval.yml'), GOLDEN);
    expect(groove('kb', 'add', 'notes', kb, '--model', 'none').code).toBe(0);
    expect(groove('index', '--kb', 'notes').code).toBe(0);

    const quoted = groove('eval', 'golden', 'quote', '--kb', 'notes');
    expect(quoted.code, quoted.stderr).toBe(0);
    const out = path.join(box.root, 'groove', 'data', 'kbs', 'notes', 'golden.yml');
    expect(quoted.stdout).toContain(`wrote ${out}: 2 of 3 heading entries re-anchored by a quote`);
    expect(quoted.stdout).toContain(
      'queries[1].expected[1] guides/password-reset.md # No such section: no indexed chunk of the document has this heading',
    );
    expect(quoted.stderr).toContain(`groove eval reads ${path.join(kb, '.groove-eval.yml')} first`);
    expect(fs.readFileSync(path.join(kb, '.groove-eval.yml'), 'utf8')).toBe(GOLDEN);
    const written = parseYaml(fs.readFileSync(out, 'utf8')) as { queries: { expected: object[] }[] };
    expect(Object.keys(written.queries[0]!.expected[0]!)).toEqual(['path', 'quote']);

    const again = groove('eval', 'golden', 'quote', '--kb', 'notes', '--format', 'json');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`refusing to overwrite the golden file "${out}"`);
    const json = groove('eval', 'golden', 'quote', '--kb', 'notes', '--out', out, '--format', 'json');
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ out, heading_entries: 3, anchored: 2 });

    const metrics = (...extra: string[]) => {
      const run = groove('eval', '--kb', 'notes', '--no-history', '--format', 'json', ...extra);
      expect(run.code, run.stderr).toBe(0);
      return (JSON.parse(run.stdout) as { per_query: { metrics: unknown }[] }).per_query.map(
        (q) => q.metrics,
      );
    };
    expect(metrics('--golden', out)).toEqual(metrics());
  });
});
