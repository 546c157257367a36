// The status page's own text: the script is valid JavaScript and has no way to turn data into markup or code
// (no innerHTML, outerHTML, insertAdjacentHTML, document.write, eval, Function, string timers); the HTML has no
// inline script, style or event handler, which the page's CSP would block anyway. The browser test shows the
// rendering itself keeps hostile titles as text.
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { PAGE_HTML } from '../../src/status-page/page-html.js';
import { PAGE_SCRIPT } from '../../src/status-page/page-script.js';
import { PAGE_ICON, PAGE_STYLE } from '../../src/status-page/page-style.js';

const MARKUP_SINKS =
  /\.innerHTML\b|\.outerHTML\b|insertAdjacentHTML|document\.write|\beval\s*\(|\bFunction\s*\(|setTimeout\s*\(\s*['"]|createContextualFragment|DOMParser|srcdoc/;

describe('the status page assets', () => {
  it('the script compiles as a classic script', () => {
    expect(() => new vm.Script(PAGE_SCRIPT, { filename: 'app.js' })).not.toThrow();
  });

  it('the script never writes server data as markup or code', () => {
    expect(PAGE_SCRIPT).not.toMatch(MARKUP_SINKS);
    // The check itself catches each sink it is meant to.
    for (const bad of [
      'node.innerHTML = title',
      'x.outerHTML=y',
      "list.insertAdjacentHTML('beforeend', s)",
      'document.write(s)',
      'eval(s)',
      'new Function(s)',
      "setTimeout('go()', 1)",
    ])
      expect(bad).toMatch(MARKUP_SINKS);
  });

  it('the script talks only to this server, with the token as an Authorization header', () => {
    const fetched = [...PAGE_SCRIPT.matchAll(/getJson\('([^']+)'/g)].map((match) => match[1]);
    expect(fetched.sort()).toEqual(['/api/search?q=', '/api/status']);
    expect(PAGE_SCRIPT).not.toMatch(/https?:\/\//);
    expect(PAGE_SCRIPT).toMatch(/headers\.Authorization = 'Bearer ' \+ token/);
    expect(PAGE_SCRIPT).toMatch(/sessionStorage/);
    expect(PAGE_SCRIPT).not.toMatch(/localStorage|document\.cookie/);
  });

  it('the HTML loads its script and style from this server only, with nothing inline', () => {
    const scripts = [...PAGE_HTML.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts).toEqual(['<script src="/ui/app.js" defer>']);
    expect(PAGE_HTML).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
    expect(PAGE_HTML).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
    expect(PAGE_STYLE).not.toMatch(/@import|url\(/);
    expect(PAGE_ICON).not.toMatch(/<script|\son[a-z]+=/i);
  });
});
