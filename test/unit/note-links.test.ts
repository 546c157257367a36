// The links a note's body names: Markdown links and wikilinks, never inside code or HTML, never external, each
// resolved against the note's folder and stripped of its fragment and query.
import { describe, expect, it } from 'vitest';
import { extractNoteLinks, markdownLinkOf, wikilinkOf } from '../../src/document/note-links.js';
import { parseDocument } from '../../src/document/parse-document.js';
import type { NoteLink } from '../../src/types.js';

/** kind:target(#heading), the short form most expectations are written in. */
function brief(links: readonly NoteLink[]): string[] {
  return links.map((l) => `${l.kind}:${l.anchored ? '' : '~'}${l.target}${l.heading ? `#${l.heading}` : ''}`);
}

const links = (body: string, source = 'notes/sub/here.md') => brief(extractNoteLinks(source, body));

describe('Markdown links', () => {
  it('resolves relative targets against the note folder, `/` from the KB root, `../` upwards', () => {
    expect(links('[a](b.md) [c](../c.md) [d](/top/d.md) [e](./e.md) [f](../../f.md)')).toEqual([
      'markdown:notes/sub/b.md',
      'markdown:notes/c.md',
      'markdown:top/d.md',
      'markdown:notes/sub/e.md',
      'markdown:f.md',
    ]);
  });

  it('decodes percent-encoding and angle-bracket destinations, and strips the query; the fragment is the heading', () => {
    expect(
      links('[a](my%20note.md#Set%20up) [b](<other note.md>) [c](c.md?plain=1#top) [d](bad%zz.md)'),
    ).toEqual([
      'markdown:notes/sub/my note.md#Set up',
      'markdown:notes/sub/other note.md',
      'markdown:notes/sub/c.md#top',
      'markdown:notes/sub/bad%zz.md',
    ]);
    expect(extractNoteLinks('a.md', '[x](my%20note.md#h "title")')[0]).toEqual({
      kind: 'markdown',
      written: 'my%20note.md#h',
      target: 'my note.md',
      anchored: true,
      heading: 'h',
    });
  });

  it('keeps a target without an extension as written (resolution may add .md)', () => {
    expect(links('[a](setup)', 'guide.md')).toEqual(['markdown:setup']);
  });

  it('counts reference links through their definitions, and a definition nobody uses not at all', () => {
    expect(links('See [the guide][g] and [g].\n\n[g]: ../guide.md\n[unused]: unused.md\n')).toEqual([
      'markdown:notes/guide.md',
    ]);
  });

  it('ignores URLs with a scheme, autolinks, protocol-relative URLs, same-note fragments, folders and escapes above the root', () => {
    const body = [
      '[web](https://example.com/a.md) [mail](mailto:a@b.c) [app](obsidian://open?file=x)',
      '<https://example.com> www.example.com me@example.com [proto](//host/x.md)',
      '[here](#section) [folder](docs/) [out](../../../outside.md) [empty]()',
    ].join('\n');
    expect(links(body)).toEqual([]);
  });

  it('never reads links inside code spans, fenced or indented code, or HTML', () => {
    const body = [
      'Text `[span](span.md)` and ``[[span wiki]]``.',
      '',
      '```md',
      '[fenced](fenced.md) [[fenced wiki]]',
      '```',
      '',
      '~~~',
      '[tilde](tilde.md)',
      '~~~',
      '',
      '    [indented](indented.md) [[indented wiki]]',
      '',
      '<!-- [comment](comment.md) [[comment wiki]] -->',
      '',
      '<div>[html](html.md)</div>',
      '',
      'After all that, [real](real.md) and [[Real Wiki]].',
    ].join('\n');
    expect(links(body)).toEqual(['markdown:notes/sub/real.md', 'wikilink:~Real Wiki']);
  });

  it('an indented line continuing a paragraph or a list item is text; after a blank line it is code', () => {
    const body = [
      'A paragraph',
      '    [continued](continued.md)',
      '',
      '    [code](code.md)',
      '',
      '- a list item',
      '',
      '    [item paragraph](item.md)',
      '',
      'back to text [[After]]',
      '',
      '\t[tab code](tab.md)',
    ].join('\n');
    expect(links(body)).toEqual([
      'markdown:notes/sub/continued.md',
      'markdown:notes/sub/item.md',
      'wikilink:~After',
    ]);
  });

  it('skips HTML blocks: raw tags to their closing tag, block tags to the next blank line', () => {
    const body = [
      '<pre>',
      '[pre](pre.md)',
      '',
      '[[still pre]]',
      '</pre>',
      '<table><tr><td>',
      '[cell](cell.md)',
      '',
      '[out](out.md)',
    ].join('\n');
    expect(links(body)).toEqual(['markdown:notes/sub/out.md']);
  });

  it('a code span or comment inside the parentheses wins over the link', () => {
    expect(links('[a](b`c`.md) [d](e<!-- x -->.md) [f](f.md)')).toEqual(['markdown:notes/sub/f.md']);
  });

  it('an unclosed code span is text, so the link after it counts', () => {
    expect(links('a ` stray backtick [b](b.md) and a `` double one [c](c.md)')).toEqual([
      'markdown:notes/sub/b.md',
      'markdown:notes/sub/c.md',
    ]);
  });

  it('a link cannot contain a link; an undefined reference label is text', () => {
    expect(links('[outer [inner](in.md)](out.md) [x][nolabel] [y][]')).toEqual(['markdown:notes/sub/in.md']);
  });

  it('an unclosed fence hides everything after it', () => {
    expect(links('[before](a.md)\n```\n[after](b.md)\n[[after]]\n')).toEqual(['markdown:notes/sub/a.md']);
  });

  it('images are not links, but a link around an image is', () => {
    expect(links('![pic](pic.png) [![pic](pic.png)](page.md)')).toEqual(['markdown:notes/sub/page.md']);
  });

  it('finds links in tables, lists and block quotes; footnotes are not links', () => {
    const body = [
      '| a | b |',
      '|---|---|',
      '| [t](t.md) | x |',
      '',
      '- [l](l.md)',
      '> [q](q.md)',
      '',
      'n[^1]',
      '',
      '[^1]: footnote.md',
    ].join('\n');
    expect(links(body)).toEqual([
      'markdown:notes/sub/t.md',
      'markdown:notes/sub/l.md',
      'markdown:notes/sub/q.md',
    ]);
  });
});

describe('wikilinks', () => {
  it('takes the name before | and # and keeps the heading', () => {
    expect(
      links('[[Name]] [[Other|shown text]] [[Third#Set up]] [[Fourth#Part|alias]] [[folder/Fifth]]'),
    ).toEqual([
      'wikilink:~Name',
      'wikilink:~Other',
      'wikilink:~Third#Set up',
      'wikilink:~Fourth#Part',
      'wikilink:~folder/Fifth',
    ]);
    expect(extractNoteLinks('a.md', '[[Fourth#Part|alias]]')[0]).toEqual({
      kind: 'wikilink',
      written: 'Fourth#Part',
      target: 'Fourth',
      anchored: false,
      heading: 'Part',
    });
  });

  it('counts embeds like links, and reads ./ ../ and / names as paths', () => {
    expect(links('![[Embedded]] [[../Up]] [[./Beside.md]] [[/root/Top]]')).toEqual([
      'wikilink:~Embedded',
      'wikilink:notes/Up',
      'wikilink:notes/sub/Beside.md',
      'wikilink:root/Top',
    ]);
  });

  it('drops an escaped pipe in a table cell, same-note headings, escaped, empty and multi-line brackets', () => {
    const body = [
      '| a |',
      '|---|',
      '| [[Cell\\|alias]] |',
      '',
      '[[#Local heading]] \\[[Escaped]] [[ ]] [[two',
      'lines]]',
    ].join('\n');
    expect(links(body)).toEqual(['wikilink:~Cell']);
  });

  it('a stray [[ before a wikilink does not swallow it', () => {
    expect(links('[[open and then [[Inner]] text')).toEqual(['wikilink:~Inner']);
  });

  it('prefers the wikilink reading of [[Name]] when a [Name] definition exists', () => {
    expect(links('[[Name]]\n\n[Name]: somewhere.md\n')).toEqual(['wikilink:~Name']);
  });

  it('does not decode percent signs in wikilink names', () => {
    expect(links('[[100%25 done]]')).toEqual(['wikilink:~100%25 done']);
  });
});

describe('each link once, in order', () => {
  it('collapses repeats of the same target and heading, keeps different headings', () => {
    expect(links('[a](x.md) [[Y]] [b](x.md) [[Y]] [[y#h]] [c](./x.md#h)')).toEqual([
      'markdown:notes/sub/x.md',
      'wikilink:~Y',
      'wikilink:~y#h',
      'markdown:notes/sub/x.md#h',
    ]);
  });

  it('a body without link syntax is not parsed at all and has none', () => {
    expect(links('plain [brackets] and (parens) only')).toEqual([]);
  });

  it('reads deep nesting and long bracket runs as CommonMark does', () => {
    expect(links(`${'>'.repeat(5000)} [deep](deep.md)`)).toEqual(['markdown:notes/sub/deep.md']);
    // The innermost `[[x]]` is a wikilink; the outermost brackets, closed before `(`, a link around it.
    expect(links(`${'['.repeat(20000)}x${']'.repeat(20000)}(y.md)`)).toEqual([
      'markdown:notes/sub/y.md',
      'wikilink:~x',
    ]);
  });

  it('stays linear on hostile input: each pattern below, a few MiB long, would take minutes if it were not', () => {
    const size = 2 * 1024 * 1024;
    const fill = (unit: string) => unit.repeat(Math.ceil(size / unit.length));
    const hostile = [
      fill('['),
      fill(']'),
      fill('[['),
      fill('[a]('),
      fill('[a](b(('),
      fill('[a](b "'),
      fill('[a](<b'),
      fill('[a]'),
      fill('`` ` '),
      fill('<!-- '),
      fill('[[a\n'),
      `${fill('[')}${fill(']')}`,
      `[a]: b.md\n\n${fill('[a] [[a][')}`,
      `${fill('[x [[y ')}]]`,
      fill('<pre>\n'),
      fill('[a]: <b\n'),
    ];
    for (const body of hostile) expect(Array.isArray(extractNoteLinks('a.md', body))).toBe(true);
  }, 60_000);
});

describe('the single-link rules', () => {
  it('markdownLinkOf and wikilinkOf refuse what is not a note', () => {
    expect(markdownLinkOf('a.md', 'HTTP://X')).toBeNull();
    expect(markdownLinkOf('a.md', '?q=1')).toBeNull();
    expect(wikilinkOf('a.md', 'https://x.y')).toBeNull();
    expect(wikilinkOf('a.md', '../../x')).toBeNull();
    expect(wikilinkOf('a/b.md', '  spaced name  |x')?.target).toBe('spaced name');
  });
});

describe('parseDocument', () => {
  const OPTIONS = { maxHeadingLevel: 3, maxChunkBytes: 4000, minChunkBytes: 0, excludeHeadings: ['Skip'] };

  it('reads links from the body of a Markdown note (not its frontmatter), excluded sections included', () => {
    const text = '---\ntitle: T\nsee: "[fm](fm.md)"\n---\n# T\n\n[a](a.md)\n\n## Skip\n\n[[Hidden]]\n';
    const doc = parseDocument({ path: 'n/x.md', text, format: 'md', options: OPTIONS });
    expect(brief(doc.links)).toEqual(['markdown:n/a.md', 'wikilink:~Hidden']);
  });

  it('plain text has no links', () => {
    const doc = parseDocument({ path: 'x.txt', text: '[a](a.md) [[B]]', format: 'txt', options: OPTIONS });
    expect(doc.links).toEqual([]);
  });
});
