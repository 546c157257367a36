// Which proxy a hub request uses: the scheme's variable, NO_PROXY's host, domain, IP, CIDR and port entries.
import { describe, expect, it } from 'vitest';
import { bypassesProxy, proxyFor } from '../../src/models/proxy-env.js';

const vars = { httpsProxy: 'http://proxy.corp:3128', httpProxy: 'proxy.corp:8080', noProxy: null };

describe('proxyFor', () => {
  it('uses HTTPS_PROXY for https URLs and HTTP_PROXY for http URLs; a bare host:port is http://', () => {
    expect(proxyFor(new URL('https://huggingface.co/x'), vars)?.href).toBe('http://proxy.corp:3128/');
    expect(proxyFor(new URL('http://mirror.local/x'), vars)?.href).toBe('http://proxy.corp:8080/');
    expect(proxyFor(new URL('https://huggingface.co/x'), { ...vars, httpsProxy: null })).toBeNull();
  });

  it('goes direct for what NO_PROXY lists', () => {
    const direct = (url: string, noProxy: string) => proxyFor(new URL(url), { ...vars, noProxy }) === null;
    expect(direct('https://huggingface.co/', '*')).toBe(true);
    expect(direct('https://cdn.huggingface.co/', 'huggingface.co')).toBe(true);
    expect(direct('https://huggingface.co/', '.huggingface.co')).toBe(true);
    expect(direct('https://a.b.huggingface.co/', '*.huggingface.co')).toBe(true);
    expect(direct('https://nothuggingface.co/', 'huggingface.co')).toBe(false);
    expect(direct('https://huggingface.co/', 'example.com, huggingface.co:443')).toBe(true);
    expect(direct('https://huggingface.co:8443/', 'huggingface.co:443')).toBe(false);
    expect(direct('http://10.1.2.3/', '10.0.0.0/8')).toBe(true);
    expect(direct('http://11.1.2.3/', '10.0.0.0/8')).toBe(false);
    expect(direct('http://[::1]:9000/', '::1')).toBe(true);
    expect(direct('http://[fd00::5]/', 'fd00::/8')).toBe(true);
    expect(direct('http://127.0.0.1/', 'localhost')).toBe(false);
  });

  it('matches host names without regard to case', () => {
    expect(bypassesProxy(new URL('https://HuggingFace.co/'), 'HUGGINGFACE.CO')).toBe(true);
  });
});
