// The local socket's wire rules (src/local-socket/local-socket-protocol.ts) and the config keys the CLI and the server
// compare (src/cli/local-server.ts): what is a request or a reply, how a line is framed and capped, and which
// config differences make the server refuse.
import { describe, expect, it } from 'vitest';
import { configKeys, serverPathOff } from '../../src/cli/local-server.js';
import { resolveConfig } from '../../src/config/resolve-config.js';
import {
  LineReader,
  MAX_LINE_BYTES,
  parseReply,
  parseRequest,
} from '../../src/local-socket/local-socket-protocol.js';

const request = { v: 1, op: 'search', identity: '/kb/.groove.db', configKey: 'k', body: { format: 'json' } };

describe('local socket protocol', () => {
  it('reads a request, and nothing else as one', () => {
    expect(parseRequest(JSON.stringify(request))).toEqual(request);
    for (const bad of [
      { ...request, v: 2 },
      { ...request, op: 'index' },
      { ...request, identity: 1 },
      { ...request, body: [] },
      { ...request, body: null },
    ])
      expect(parseRequest(JSON.stringify(bad))).toBeNull();
    expect(parseRequest('not json')).toBeNull();
    expect(parseRequest('[1]')).toBeNull();
  });

  it('reads a reply: an answer with both streams, or a refusal with a reason', () => {
    const answer = { v: 1, ok: true, stdout: 'x\n', stderr: '' };
    expect(parseReply(JSON.stringify(answer))).toEqual(answer);
    expect(parseReply(JSON.stringify({ v: 1, ok: false, reason: 'no' }))).toEqual({
      v: 1,
      ok: false,
      reason: 'no',
    });
    expect(parseReply(JSON.stringify({ v: 1, ok: true, stdout: 'x' }))).toBeNull();
    expect(parseReply(JSON.stringify({ v: 1, ok: false }))).toBeNull();
    expect(parseReply(JSON.stringify({ ...answer, v: 0 }))).toBeNull();
  });

  it('frames a line across chunks, stops at the first newline, and refuses one over the cap', () => {
    const reader = new LineReader();
    expect(reader.push(Buffer.from('{"a":'))).toBeNull();
    expect(reader.push(Buffer.from('"日本"}\n{"b":1}\n'))).toBe('{"a":"日本"}');
    const long = new LineReader();
    expect(long.push(Buffer.alloc(MAX_LINE_BYTES + 1, 0x61))).toBeNull();
    expect(long.tooLong).toBe(true);
  });
});

describe('config keys', () => {
  const config = (overrides: Record<string, unknown>, env: Record<string, string> = {}) =>
    resolveConfig({ cwd: '/', env, overrides: { kbPath: '/kb', dbPath: '/kb.db', ...overrides } });

  it('are the same for the same flags and env, and differ when the model, the index or the env differ', () => {
    const base = configKeys(config({}));
    expect(configKeys(config({}))).toEqual(base);
    expect(configKeys(config({ model: 'none' })).search).not.toBe(base.search);
    expect(configKeys(config({}, { GROOVE_OFFLINE: '1' })).search).not.toBe(base.search);
    expect(configKeys(config({ dbPath: '/other.db' })).search).not.toBe(base.search);
  });

  it('for status, cover only what status reads: the model flags do not change it, the index path does', () => {
    const base = configKeys(config({}));
    expect(configKeys(config({ model: 'none', offline: true })).status).toBe(base.status);
    expect(configKeys(config({ dbPath: '/other.db' })).status).not.toBe(base.status);
  });

  it('--no-server and GROOVE_NO_SERVER (but not an empty or 0 value) turn the server path off', () => {
    expect(serverPathOff({ server: false }, {})).toBe(true);
    expect(serverPathOff({ server: true }, { GROOVE_NO_SERVER: '1' })).toBe(true);
    expect(serverPathOff({}, { GROOVE_NO_SERVER: '0' })).toBe(false);
    expect(serverPathOff({}, { GROOVE_NO_SERVER: '' })).toBe(false);
    expect(serverPathOff({}, {})).toBe(false);
  });
});
