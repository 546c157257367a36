// The status page's routes of a server of several KBs over real HTTP on 127.0.0.1: `/api/search` searches every
// served KB as one corpus unless `kb` (repeated, or a comma list) chooses some, every hit naming its KB; an
// unknown KB is a 400 naming the served ones, a KB served as missing is skipped with a note (or refused when
// named); `/api/status` lists every KB with its counts and health. The search is the MCP `search` tool's own.
import { afterEach, describe, expect, it } from 'vitest';
import { rawGet } from '../support/status-page-fixture.js';
import { type ManyKbStatusPage, serveManyKbStatusPage } from '../support/status-page-many-fixture.js';

interface Hit {
  kb: string;
  path: string;
}

describe('the status page of a server of several KBs over HTTP', () => {
  let server: ManyKbStatusPage | null = null;

  afterEach(async () => {
    await server?.close();
    server = null;
  });

  async function search(query: string): Promise<{ status: number; json: Record<string, unknown> }> {
    const reply = await rawGet(server!.port, `/api/search?${query}`);
    return { status: reply.status, json: JSON.parse(reply.body) };
  }

  const hitsOf = (json: Record<string, unknown>) => json.results as Hit[];
  const kbsOf = (json: Record<string, unknown>) => [...new Set(hitsOf(json).map((hit) => hit.kb))].sort();

  it('GET /api/search: every KB by default, the KBs named by kb (repeated or comma list) otherwise', async () => {
    server = await serveManyKbStatusPage();
    const every = await search('q=kestrel&limit=10');
    expect(every.status).toBe(200);
    expect(hitsOf(every.json)).toHaveLength(5);
    expect(kbsOf(every.json)).toEqual(['alpha', 'beta']);
    for (const hit of hitsOf(every.json)) expect(hit.path.startsWith(`${hit.kb}/`)).toBe(true);
    expect(every.json).not.toHaveProperty('skipped');

    const beta = await search('q=kestrel&limit=10&kb=beta');
    expect(beta.status).toBe(200);
    expect(
      hitsOf(beta.json)
        .map((hit) => [hit.kb, hit.path])
        .sort(),
    ).toEqual([
      ['beta', 'beta/note-1.md'],
      ['beta', 'beta/note-2.md'],
    ]);

    for (const both of ['kb=alpha&kb=beta', 'kb=alpha,beta', 'kb=beta%2C%20alpha']) {
      const answer = await search(`q=kestrel&limit=10&${both}`);
      expect(answer.status, both).toBe(200);
      expect(kbsOf(answer.json), both).toEqual(['alpha', 'beta']);
      expect(hitsOf(answer.json), both).toHaveLength(5);
    }
    // A word only alpha holds: alpha's notes rank first in the one ranking.
    const osprey = await search('q=osprey&limit=10');
    expect(hitsOf(osprey.json)[0]!.kb).toBe('alpha');
  });

  it('GET /api/search with an unknown kb is a 400 naming the served KBs', async () => {
    server = await serveManyKbStatusPage();
    const answer = await search('q=kestrel&kb=alpha,nope');
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({
      error: {
        code: 'KB_UNKNOWN',
        message: 'this server does not serve a KB named "nope"',
        hint: 'name one of the served KBs: alpha, beta',
      },
    });
    const emptyQuery = await search('q=&kb=beta');
    expect(emptyQuery.status).toBe(400);
  });

  it('a KB served as missing: skipped with its problem over every KB, refused when named', async () => {
    server = await serveManyKbStatusPage({ missing: true });
    const every = await search('q=kestrel&limit=10');
    expect(every.status).toBe(200);
    expect(kbsOf(every.json)).toEqual(['alpha', 'beta']);
    expect(every.json.skipped).toEqual([{ kb: 'gamma', problem: expect.stringMatching(/is missing$/) }]);
    const named = await search('q=kestrel&kb=gamma');
    expect(named.status).toBe(503);
    expect((named.json.error as { code: string }).code).toBe('KB_NOT_FOUND');
  });

  it('GET /api/status lists every served KB with its counts and health', async () => {
    server = await serveManyKbStatusPage({ missing: true });
    const reply = await rawGet(server.port, '/api/status');
    expect(reply.status).toBe(200);
    const json = JSON.parse(reply.body);
    expect(json.kb_path).toBe(server.kbs[0]!.kb.kbPath); // the panels' KB: the first serving one
    const rows = (json.kbs as { name: string; health: string; index?: { documents: number } }[]).map(
      (kb) => ({
        name: kb.name,
        health: kb.health,
        documents: kb.index?.documents ?? null,
      }),
    );
    expect(rows).toEqual([
      { name: 'alpha', health: 'ok', documents: 3 },
      { name: 'beta', health: 'ok', documents: 2 },
      { name: 'gamma', health: 'folder missing', documents: null },
    ]);
  });
});
