// The status page's routes over real HTTP on 127.0.0.1 against an indexed KB: `/api/status` is the CLI's status
// and doctor JSON plus the runner's runs, `/api/search` the CLI's search JSON; both sit behind the same Host,
// Origin and token gate as /mcp, while the page shell (no KB data in it) loads without the token. Every answer
// carries the content type, CSP, nosniff and no-store headers, and KB text never appears in the served markup.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { doctorReportToJson, searchResponseToJson, statusReportToJson } from '../../src/app/index.js';
import { PAGE_CSP } from '../../src/status-page/ui-routes.js';
import { createServeKb, repoRoot, waitFor } from '../support/mcp-fixture.js';
import {
  HOSTILE_HEADING,
  HOSTILE_TITLE,
  rawGet,
  type StatusPageServer,
  serveStatusPage,
} from '../support/status-page-fixture.js';

const TOKEN = 'status-page-test-token';
const auth = { Authorization: `Bearer ${TOKEN}` };

describe('the status page over HTTP', () => {
  let server: StatusPageServer | null = null;

  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('GET /api/status: the index and doctor as the CLI prints them, the last runs, and no caching', async () => {
    server = await serveStatusPage();
    const reply = await rawGet(server.port, '/api/status');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['content-security-policy']).toMatch(/default-src 'none'/);
    const json = JSON.parse(reply.body);
    expect(Object.keys(json).sort()).toEqual(
      [
        'doctor',
        'doctor_checked_at',
        'doctor_error',
        'generated_at',
        'index',
        'index_error',
        'indexing',
        'kb_path',
        'version',
        'watcher',
      ].sort(),
    );
    expect(json.index).toEqual(statusReportToJson(server.kb.status()));
    expect(json.index).toMatchObject({
      documents: 7,
      chunks: 13,
      vectors: 13,
      model: 'test-counting:counting-8',
    });
    expect(json.index.last_indexed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(json.doctor).toEqual(doctorReportToJson(server.kb.doctor()));
    expect(json.doctor.findings).toEqual([]);
    expect(json.doctor.checked).toContain('missing-embedding');
    expect(json).toMatchObject({
      kb_path: server.kb.kbPath,
      index_error: null,
      doctor_error: null,
      watcher: null,
    });
    expect(json.indexing).toMatchObject({ active: null, completed_runs: 1 });
    expect(json.indexing.recent_runs).toHaveLength(1);
    expect(json.indexing.recent_runs[0]).toMatchObject({
      kind: 'sync',
      outcome: 'ok',
      error: null,
      summary: { indexed: 7, embedded_chunks: 13 },
    });
  });

  it('GET /api/status with live sync: the watcher reports, and a new file shows up as a run', async () => {
    server = await serveStatusPage({ watch: true });
    const before = JSON.parse((await rawGet(server.port, '/api/status')).body);
    expect(before.watcher).toMatchObject({ phase: 'idle', waiting_for_writer: false, failures: 0 });
    server.serveKb.write('new/added.md', '# Added\n\nA freshly written note about walruses.\n');
    const port = server.port;
    await waitFor(
      async () => JSON.parse((await rawGet(port, '/api/status')).body).index.documents === 8,
      10_000,
      'the new file in the status',
    );
    const after = JSON.parse((await rawGet(port, '/api/status')).body);
    expect(after.indexing.recent_runs[0].summary).toMatchObject({ indexed: 1, documents: 8 });
    expect(after.indexing.completed_runs).toBeGreaterThan(before.indexing.completed_runs);
    expect(after.watcher.events).toBeGreaterThan(0);
  });

  it('GET /api/search: the CLI search JSON for q and limit; KB text comes back as JSON data only', async () => {
    server = await serveStatusPage();
    const reply = await rawGet(server.port, '/api/search?q=zebrafish&limit=3');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.headers['cache-control']).toBe('no-store');
    const json = JSON.parse(reply.body);
    expect(json).toEqual(searchResponseToJson(await server.kb.search({ query: 'zebrafish', limit: 3 })));
    expect(json.results[0]).toMatchObject({ path: 'hostile/markup.md', title: HOSTILE_TITLE });
    expect(json.results[0].heading).toBe(HOSTILE_HEADING);
    expect(json.results.length).toBeLessThanOrEqual(3);
    const encoded = await rawGet(server.port, `/api/search?q=${encodeURIComponent('Note about password')}`);
    expect(JSON.parse(encoded.body).results[0].path).toBe('guides/password-reset.md');
    const budgeted = JSON.parse((await rawGet(server.port, '/api/search?q=zebrafish&max_tokens=40')).body);
    expect(budgeted).toEqual(
      searchResponseToJson(await server.kb.search({ query: 'zebrafish', maxTokens: 40 })),
    );
    expect(budgeted.max_tokens).toBe(40);
    expect(budgeted.tokens_used).toBeLessThanOrEqual(40);
    const lexical = JSON.parse((await rawGet(server.port, '/api/search?q=zebrafish&legs=lexical')).body);
    expect(lexical.legs.vector.status).toBe('disabled');
    expect(lexical.results.map((hit: { path: string }) => hit.path)).toEqual(
      (await server.kb.search({ query: 'zebrafish', legs: 'lexical' })).results.map((hit) => hit.path),
    );
    const timed = JSON.parse((await rawGet(server.port, '/api/search?q=zebrafish&timings=true')).body);
    expect(timed.timings_ms.total).toBeGreaterThanOrEqual(0);
    expect(
      JSON.parse((await rawGet(server.port, '/api/search?q=zebrafish&timings=false')).body),
    ).not.toHaveProperty('timings_ms');
  });

  it('GET /api/search refuses what the search refuses, as a 400 with the code, message and hint', async () => {
    server = await serveStatusPage();
    for (const [target, code] of [
      ['/api/search', 'INVALID_ARGUMENT'],
      ['/api/search?q=', 'INVALID_ARGUMENT'],
      ['/api/search?q=x&limit=0', 'INVALID_ARGUMENT'],
      ['/api/search?q=x&limit=ten', 'INVALID_ARGUMENT'],
      ['/api/search?q=x&max_tokens=5', 'INVALID_ARGUMENT'],
      ['/api/search?q=x&legs=words', 'INVALID_ARGUMENT'],
      ['/api/search?q=x&timings=yes', 'INVALID_ARGUMENT'],
      ['/api/search?q=-draft', 'QUERY_INVALID'],
    ] as const) {
      const reply = await rawGet(server.port, target);
      expect(reply.status, target).toBe(400);
      expect(JSON.parse(reply.body).error, target).toMatchObject({ code, message: expect.any(String) });
    }
  });

  it("GET /api/search says what a bad limit must be in groove's words, whatever its text", async () => {
    server = await serveStatusPage();
    for (const limit of ['abc', '1.5', '', '0', '1001', '1e3', '-2']) {
      const reply = await rawGet(server.port, `/api/search?q=x&limit=${encodeURIComponent(limit)}`);
      expect(reply.status, limit).toBe(400);
      expect(JSON.parse(reply.body).error, limit).toEqual({
        code: 'INVALID_ARGUMENT',
        message: 'invalid search: limit must be a whole number from 1 to 1000',
        hint: 'see `groove search --help` for every parameter and its range',
      });
    }
  });

  it('without an index: /api/status still answers with the problem, /api/search is a 503', async () => {
    server = await serveStatusPage({ indexed: false });
    const status = JSON.parse((await rawGet(server.port, '/api/status')).body);
    expect(status.index).toBeNull();
    expect(status.index_error).toMatchObject({ code: 'INDEX_NOT_FOUND', hint: expect.any(String) });
    expect(status.doctor_error).toMatchObject({ code: 'INDEX_NOT_FOUND' });
    const search = await rawGet(server.port, '/api/search?q=password');
    expect(search.status).toBe(503);
    expect(JSON.parse(search.body).error.code).toBe('INDEX_NOT_FOUND');
  });

  it('serves the page, its script, stylesheet and icon with their types and a script-src self CSP', async () => {
    server = await serveStatusPage();
    const page = await rawGet(server.port, '/ui');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(PAGE_CSP).toMatch(/script-src 'self';/);
    expect(PAGE_CSP).not.toMatch(/unsafe/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toMatch(/<script src="\/ui\/app\.js" defer><\/script>/);
    // The shell is fixed text: nothing from the knowledge base is ever written into markup by the server.
    for (const text of [HOSTILE_TITLE, HOSTILE_HEADING, 'zebrafish', 'Note about', server.kb.kbPath])
      expect(page.body).not.toContain(text);
    expect((await rawGet(server.port, '/ui/')).body).toBe(page.body);
    for (const [target, type] of [
      ['/ui/app.js', 'text/javascript; charset=utf-8'],
      ['/ui/app.css', 'text/css; charset=utf-8'],
      ['/ui/icon.svg', 'image/svg+xml'],
    ]) {
      const asset = await rawGet(server.port, target!);
      expect(asset.status, target).toBe(200);
      expect(asset.headers['content-type'], target).toBe(type);
      expect(asset.headers['x-content-type-options'], target).toBe('nosniff');
    }
  });

  it('answers only GET on its routes, and names /ui in the 404 for an unknown path', async () => {
    server = await serveStatusPage();
    for (const target of ['/ui', '/api/status', '/api/search?q=x']) {
      const reply = await rawGet(server.port, target, {}, 'POST');
      expect(reply.status, target).toBe(405);
      expect(reply.headers.allow).toBe('GET');
    }
    const missing = await rawGet(server.port, '/api/nothing');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).error.message).toMatch(/the status page is \/ui/);
  });

  it('refuses a foreign Host or Origin on every status route, page included (403)', async () => {
    server = await serveStatusPage();
    for (const target of ['/ui', '/ui/app.js', '/api/status', '/api/search?q=password']) {
      const wrongHost = await rawGet(server.port, target, { Host: `evil.example:${server.port}` });
      expect(wrongHost.status, target).toBe(403);
      expect(wrongHost.body).not.toContain('zebrafish');
      const foreign = await rawGet(server.port, target, { Origin: 'http://evil.example' });
      expect(foreign.status, target).toBe(403);
      const sameOrigin = await rawGet(server.port, target, { Origin: `http://127.0.0.1:${server.port}` });
      expect(sameOrigin.status, target).toBe(200);
    }
    const rebound = await rawGet(server.port, '/api/status', { Host: 'localhost.evil.example' });
    expect(rebound.status).toBe(403);
  });

  it('with a token: the data routes need it (401 when missing or wrong), the page shell does not', async () => {
    server = await serveStatusPage({ http: { token: TOKEN } });
    for (const target of ['/api/status', '/api/search?q=password']) {
      const missing = await rawGet(server.port, target);
      expect(missing.status, target).toBe(401);
      expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(missing.body).not.toContain('password-reset');
      expect((await rawGet(server.port, target, { Authorization: 'Bearer wrong' })).status, target).toBe(401);
      expect((await rawGet(server.port, target, { Authorization: TOKEN })).status, target).toBe(401);
      expect((await rawGet(server.port, target, auth)).status, target).toBe(200);
    }
    // The token in a query string is no token: only the Authorization header counts.
    expect((await rawGet(server.port, `/api/status?token=${TOKEN}`)).status).toBe(401);
    for (const target of ['/ui', '/ui/', '/ui/app.js', '/ui/app.css', '/ui/icon.svg'])
      expect((await rawGet(server.port, target)).status, target).toBe(200);
    // Token-free means exactly those paths: anything else under /ui still needs the token first.
    expect((await rawGet(server.port, '/ui/other')).status).toBe(401);
    expect((await rawGet(server.port, '/ui/app.js/x')).status).toBe(401);
    // And the page shell still passes the Host guard first.
    expect((await rawGet(server.port, '/ui', { Host: 'evil.example' })).status).toBe(403);
  });
});

const built = fs.existsSync(path.join(repoRoot, 'dist/src/cli/cmd-serve.js'));

describe.skipIf(!built)('groove serve --transport http (spawned) serves the status page', () => {
  it('logs the page URL and answers /ui and /api/status with the token from GROOVE_HTTP_TOKEN', async () => {
    const serveKb = createServeKb({ model: 'none' });
    const child = spawn(
      process.execPath,
      [path.join(repoRoot, 'bin/groove.js'), 'serve', '--transport', 'http', '--port', '0'].concat([
        '--kb-path',
        serveKb.kbPath,
        '--db-path',
        serveKb.dbPath,
        '--model',
        'none',
      ]),
      { env: { ...process.env, GROOVE_OFFLINE: '1', GROOVE_HTTP_TOKEN: TOKEN } },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await waitFor(
        () => /status page: http:\/\/127\.0\.0\.1:\d+\/ui\n/.test(stderr),
        15_000,
        'the page URL',
      );
      expect(stderr).not.toContain(TOKEN);
      const port = Number(/status page: http:\/\/127\.0\.0\.1:(\d+)\/ui/.exec(stderr)![1]);
      expect((await rawGet(port, '/ui')).status).toBe(200);
      expect((await rawGet(port, '/api/status')).status).toBe(401);
      await waitFor(
        async () => JSON.parse((await rawGet(port, '/api/status', auth)).body).index?.documents === 6,
        10_000,
        'the startup sync',
      );
      const status = JSON.parse((await rawGet(port, '/api/status', auth)).body);
      expect(status).toMatchObject({ version: expect.any(String), index: { model: 'none', vectors: 0 } });
      expect(status.watcher).toMatchObject({ phase: expect.stringMatching(/idle|debouncing|running/) });
      expect(status.indexing.recent_runs[0]).toMatchObject({ kind: 'sync', outcome: 'ok' });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      serveKb.cleanup();
    }
  });
});
