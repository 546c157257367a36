// Each hit names the lines of its source file its chunk spans (line_start/line_end): counted from the chunk's
// byte range in the file as it was indexed, frontmatter included; null once the file changed since indexing.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { searchResponseToJson } from '../../src/app/index.js';
import type { KnowledgeBase } from '../../src/app/knowledge-base.js';
import { createServeKb, note, openTestKb, type ServeKb } from '../support/mcp-fixture.js';

let serveKb: ServeKb;
let kb: KnowledgeBase;
afterEach(async () => {
  await kb.close();
  serveKb.cleanup();
});

/** The 1-based line of the first occurrence of `text` in `file`. */
function lineOf(file: string, text: string): number {
  const before = fs.readFileSync(file, 'utf8').split(text)[0]!;
  return before.split('\n').length;
}

describe('line_start and line_end', () => {
  it('name the lines of the chunk in its file, and are null once the file changed', async () => {
    serveKb = createServeKb({
      model: 'none',
      files: { 'ops/backup.md': note('backup') },
    });
    kb = openTestKb(serveKb, null);
    await kb.index();
    const file = path.join(serveKb.kbPath, 'ops', 'backup.md');
    const response = await kb.search({ query: 'backupbeta', limit: 1 });
    const hit = searchResponseToJson(response).results as { line_start: number; line_end: number }[];
    // The second section starts at its heading and ends on the file's last text line.
    expect(hit[0]!.line_start).toBe(lineOf(file, '## More on backup'));
    expect(hit[0]!.line_end).toBe(lineOf(file, 'The second section covers'));
    expect(hit[0]!.line_start).toBeGreaterThan(6); // after the frontmatter

    fs.appendFileSync(file, '\nAn edit not indexed yet.\n');
    const stale = await kb.search({ query: 'backupbeta', limit: 1 });
    expect(stale.results[0]).toMatchObject({ lineStart: null, lineEnd: null });
  });
});
