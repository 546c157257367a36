// Downloads through a proxy, with a tiny loopback proxy and fake hub (real sockets): HTTP_PROXY forwards an http
// hub's requests, HTTPS_PROXY tunnels an https hub's with CONNECT (in a second process that trusts the test
// certificate through NODE_EXTRA_CA_CERTS, as a user behind an inspecting proxy would), NO_PROXY bypasses it,
// proxy credentials are sent, and a proxy that refuses is reported.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrooveError } from '../../src/errors.js';
import type { HubSettings } from '../../src/models/hub-settings.js';
import { pullModel } from '../../src/models/model-pull.js';
import { type FakeHub, startFakeHub } from '../support/fake-hub.js';
import { FAKE_REVISION, fakeModelFiles, listFiles, pinOf } from '../support/fake-pins.js';
import { type FakeProxy, startFakeProxy } from '../support/fake-proxy.js';

const REPO = 'Xenova/multilingual-e5-small';
const files = fakeModelFiles('through a proxy');
const pins = { 'multilingual-e5-small': pinOf(files) };

let tmp: string;
let hub: FakeHub;
let proxy: FakeProxy;

function pullVia(settings: HubSettings) {
  return pullModel({
    id: 'multilingual-e5-small',
    cacheDir: path.join(tmp, 'cache'),
    offline: false,
    hubEndpoint: hub.url,
    hub: { pins, retryBaseMs: 5, maxRetries: 1, ...settings },
  });
}

function downloadedFiles(): string[] {
  return listFiles(path.join(tmp, 'cache', 'Xenova', 'multilingual-e5-small'));
}

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A throwaway certificate for 127.0.0.1. */
function makeCertificate(dir: string): { key: string; cert: string; certPath: string } {
  const keyPath = path.join(dir, 'key.pem');
  const certPath = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key: fs.readFileSync(keyPath, 'utf8'), cert: fs.readFileSync(certPath, 'utf8'), certPath };
}

function runPullChild(
  options: object,
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  const script = path.join(import.meta.dirname, '../support/pull-child.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(options)], {
    env: { PATH: process.env.PATH ?? '', HOME: tmp, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

beforeEach(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'groove-proxy-'));
  hub = await startFakeHub({ [REPO]: { [FAKE_REVISION]: files } });
  proxy = await startFakeProxy();
});

afterEach(async () => {
  await hub.close();
  await proxy.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('HTTP_PROXY and NO_PROXY', () => {
  it('sends every request of an http hub through the proxy, with its credentials', async () => {
    const withCredentials = proxy.url.replace('http://', 'http://alice:pa%40ss@');
    await pullVia({ httpProxy: withCredentials });
    expect(downloadedFiles()).toEqual(Object.keys(files).sort());
    expect(proxy.log.length).toBe(4);
    for (const entry of proxy.log) {
      expect(entry.method).toBe('GET');
      expect(entry.target.startsWith(`${hub.url}/${REPO}/resolve/${FAKE_REVISION}/`)).toBe(true);
      expect(entry.proxyAuthorization).toBe(`Basic ${Buffer.from('alice:pa@ss').toString('base64')}`);
    }
  });

  it('goes direct for a host NO_PROXY lists', async () => {
    await pullVia({ httpProxy: proxy.url, noProxy: 'example.com, 127.0.0.0/8' });
    expect(downloadedFiles()).toEqual(Object.keys(files).sort());
    expect(proxy.log).toEqual([]);
    expect(hub.requests.length).toBe(4);
  });

  it('reports a proxy that refuses as MODEL_UNAVAILABLE', async () => {
    proxy.refuse = 403;
    let error: unknown;
    await pullVia({ httpProxy: proxy.url }).catch((e: unknown) => (error = e));
    expect(error).toBeInstanceOf(GrooveError);
    expect((error as GrooveError).code).toBe('MODEL_UNAVAILABLE');
    expect((error as GrooveError).message).toContain('HTTP 403');
    expect(downloadedFiles()).toEqual([]);
  });
});

describe.skipIf(!hasOpenssl())('HTTPS_PROXY', () => {
  it('tunnels an https hub through CONNECT; the token travels inside the tunnel only', async () => {
    const tls = makeCertificate(tmp);
    await hub.close();
    hub = await startFakeHub({ [REPO]: { [FAKE_REVISION]: files } }, { requireToken: 'hf_tunnel' }, tls);
    const run = await runPullChild(
      {
        id: 'multilingual-e5-small',
        cacheDir: path.join(tmp, 'cache'),
        offline: false,
        hubEndpoint: hub.url,
        hub: { pins },
      },
      { HTTPS_PROXY: proxy.url, HF_TOKEN: 'hf_tunnel', NODE_EXTRA_CA_CERTS: tls.certPath },
    );
    expect(run.out).toContain('"ok":true');
    expect(run.code).toBe(0);
    expect(downloadedFiles()).toEqual(Object.keys(files).sort());
    const port = new URL(hub.url).port;
    expect(proxy.log.map((e) => `${e.method} ${e.target}`)).toEqual(
      Array(4).fill(`CONNECT 127.0.0.1:${port}`),
    );
    expect(proxy.log.every((e) => e.authorization === undefined)).toBe(true);
    expect(hub.requests.every((r) => r.authorization === 'Bearer hf_tunnel')).toBe(true);
  });
});
