// The HTTP security predicates: Host/Origin allow-lists, bearer token, request target, Content-Type, loopback
// binds and the default lists.
import { describe, expect, it } from 'vitest';
import {
  defaultAllowedHosts,
  defaultAllowedOrigins,
  isHostAllowed,
  isJsonContentType,
  isLoopbackBind,
  isOriginAllowed,
  isTokenAccepted,
  parseHostAndPort,
  requestPathOf,
} from '../../src/mcp/http-guard.js';

describe('parseHostAndPort', () => {
  it('reads names, IPv4, bracketed IPv6 and ports', () => {
    expect(parseHostAndPort('LocalHost:3100')).toEqual({ host: 'localhost', port: 3100 });
    expect(parseHostAndPort('127.0.0.1')).toEqual({ host: '127.0.0.1', port: null });
    expect(parseHostAndPort('[::1]:80')).toEqual({ host: '[::1]', port: 80 });
  });

  it('refuses malformed values', () => {
    for (const bad of ['', 'a b', 'host:99999', 'host:', '::1', 'user@host', 'host/path']) {
      expect(parseHostAndPort(bad)).toBeNull();
    }
  });
});

describe('isHostAllowed', () => {
  const allowed = ['localhost', '127.0.0.1:3100', '[::1]'];

  it('accepts allowed names; an entry without a port allows any port', () => {
    expect(isHostAllowed('localhost:3100', allowed)).toBe(true);
    expect(isHostAllowed('LOCALHOST:9', allowed)).toBe(true);
    expect(isHostAllowed('[::1]:3100', allowed)).toBe(true);
    expect(isHostAllowed('127.0.0.1:3100', allowed)).toBe(true);
  });

  it('refuses other hosts, other ports of a port entry, and missing or forged headers', () => {
    expect(isHostAllowed('evil.example', allowed)).toBe(false);
    expect(isHostAllowed('evil.example:3100', allowed)).toBe(false);
    expect(isHostAllowed('127.0.0.1:3101', allowed)).toBe(false);
    expect(isHostAllowed('127.0.0.1', allowed)).toBe(false);
    expect(isHostAllowed(undefined, allowed)).toBe(false);
    expect(isHostAllowed('localhost.evil.example', allowed)).toBe(false);
    expect(isHostAllowed('localhost@evil', allowed)).toBe(false);
  });

  it('refuses everything with an empty list', () => {
    expect(isHostAllowed('localhost', [])).toBe(false);
  });
});

describe('isOriginAllowed', () => {
  const allowed = ['http://localhost:3100', 'https://app.example'];

  it('lets requests without an Origin through (non-browser clients)', () => {
    expect(isOriginAllowed(undefined, allowed)).toBe(true);
  });

  it('matches scheme, host and port; an entry without a port allows any port', () => {
    expect(isOriginAllowed('http://localhost:3100', allowed)).toBe(true);
    expect(isOriginAllowed('HTTP://LOCALHOST:3100', allowed)).toBe(true);
    expect(isOriginAllowed('https://app.example:8443', allowed)).toBe(true);
    expect(isOriginAllowed('https://app.example', allowed)).toBe(true);
  });

  it('refuses other schemes, hosts, ports, null and junk', () => {
    expect(isOriginAllowed('https://localhost:3100', allowed)).toBe(false);
    expect(isOriginAllowed('http://localhost:3101', allowed)).toBe(false);
    expect(isOriginAllowed('http://localhost', allowed)).toBe(false);
    expect(isOriginAllowed('http://evil.example', allowed)).toBe(false);
    expect(isOriginAllowed('null', allowed)).toBe(false);
    expect(isOriginAllowed('localhost:3100', allowed)).toBe(false);
  });

  it('compares default ports to explicit ones', () => {
    expect(isOriginAllowed('http://localhost', ['http://localhost:80'])).toBe(true);
    expect(isOriginAllowed('http://localhost:80', ['http://localhost:8080'])).toBe(false);
  });
});

describe('isTokenAccepted', () => {
  it('accepts anything when no token is configured', () => {
    expect(isTokenAccepted(undefined, null)).toBe(true);
  });

  it('needs the exact bearer token', () => {
    expect(isTokenAccepted('Bearer s3cret', 's3cret')).toBe(true);
    expect(isTokenAccepted('bearer s3cret', 's3cret')).toBe(true);
    expect(isTokenAccepted('Bearer s3cre', 's3cret')).toBe(false);
    expect(isTokenAccepted('Bearer s3cret2', 's3cret')).toBe(false);
    expect(isTokenAccepted('Basic s3cret', 's3cret')).toBe(false);
    expect(isTokenAccepted('s3cret', 's3cret')).toBe(false);
    expect(isTokenAccepted(undefined, 's3cret')).toBe(false);
    expect(isTokenAccepted('Bearer ', 's3cret')).toBe(false);
  });
});

describe('isLoopbackBind', () => {
  it('recognises loopback addresses', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) {
      expect(isLoopbackBind(address)).toBe(true);
    }
  });

  it('treats wildcards, LAN and public addresses as remote', () => {
    for (const address of [
      '0.0.0.0',
      '::',
      '192.168.1.10',
      '10.0.0.1',
      'example.com',
      '128.0.0.1',
      '127.0.0',
    ]) {
      expect(isLoopbackBind(address)).toBe(false);
    }
  });
});

describe('default allow-lists', () => {
  it('allows the loopback names, plus a specific non-loopback bind', () => {
    expect(defaultAllowedHosts('127.0.0.1')).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(defaultAllowedHosts('0.0.0.0')).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(defaultAllowedHosts('192.168.1.10')).toContain('192.168.1.10');
    expect(defaultAllowedHosts('fe80::1')).toContain('[fe80::1]');
  });

  it('allows the loopback origins on the served port only', () => {
    const origins = defaultAllowedOrigins(3100);
    expect(isOriginAllowed('http://127.0.0.1:3100', origins)).toBe(true);
    expect(isOriginAllowed('http://localhost:3100', origins)).toBe(true);
    expect(isOriginAllowed('http://localhost:5173', origins)).toBe(false);
  });
});

describe('requestPathOf', () => {
  it('returns the path of an origin-form target as sent, without the query', () => {
    expect(requestPathOf('/mcp')).toBe('/mcp');
    expect(requestPathOf('/healthz?verbose=1&x=%20')).toBe('/healthz');
    expect(requestPathOf('//evil.example/mcp')).toBe('//evil.example/mcp');
    expect(requestPathOf('/a/../mcp')).toBe('/a/../mcp');
    expect(requestPathOf('/%6Dcp')).toBe('/%6Dcp');
    expect(requestPathOf("/a:b@c!$&'()*+,;=-._~")).toBe("/a:b@c!$&'()*+,;=-._~");
  });

  it('refuses other target forms and characters a URL path cannot hold', () => {
    for (const bad of [
      '',
      '*',
      'mcp',
      'http://evil.example/mcp',
      '//[',
      '/[',
      '/mcp#x',
      '/a b',
      '/%zz',
      '/%4',
    ]) {
      expect(requestPathOf(bad), bad).toBeNull();
    }
  });

  it('answers a long hostile target in linear time', () => {
    const started = performance.now();
    expect(requestPathOf(`/${'a/%41'.repeat(4000)}[`)).toBeNull();
    expect(performance.now() - started).toBeLessThan(100);
  });
});

describe('isJsonContentType', () => {
  it('accepts application/json in any case, with a UTF-8 charset or other parameters', () => {
    for (const good of ['application/json', 'Application/JSON', 'application/json; charset=utf-8']) {
      expect(isJsonContentType(good), good).toBe(true);
    }
    expect(isJsonContentType('application/json;charset="UTF-8"')).toBe(true);
    expect(isJsonContentType('application/json; charset=utf8; profile=x')).toBe(true);
  });

  it('refuses other media types, other charsets and a missing header', () => {
    for (const bad of [
      'text/plain',
      'application/jsonl',
      'application/json-patch+json',
      'text/json',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      '',
    ]) {
      expect(isJsonContentType(bad), bad).toBe(false);
    }
    expect(isJsonContentType(undefined)).toBe(false);
  });
});
