// Every relative link in README.md and docs/ names a file that exists, and a heading in it when it has a fragment.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');

function markdownFiles(): string[] {
  const docs = (dir: string): string[] =>
    fs.readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) return docs(rel);
      return entry.name.endsWith('.md') ? [rel] : [];
    });
  return ['README.md', ...docs('docs')];
}

/** The text a reader sees as prose: fenced blocks and code spans removed. */
function prose(text: string): string {
  return text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchors of a page's headings. */
function anchorsOf(file: string): Set<string> {
  const headings = [...prose(fs.readFileSync(file, 'utf8')).matchAll(/^#+ (.+)$/gm)];
  const raw = [
    ...fs
      .readFileSync(file, 'utf8')
      .replace(/```[\s\S]*?```/g, '')
      .matchAll(/^#+ (.+)$/gm),
  ];
  return new Set(
    [...headings, ...raw].map((m) =>
      m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^a-z0-9 _-]/g, '')
        .replace(/ /g, '-'),
    ),
  );
}

describe('documentation links', () => {
  it('every relative link resolves to a file, and to a heading when it names one', () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      const text = prose(fs.readFileSync(path.join(repoRoot, file), 'utf8'));
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = match[1]!;
        if (/^[a-z]+:/.test(link)) continue;
        const [target, fragment] = link.split('#');
        const resolved = target
          ? path.resolve(repoRoot, path.dirname(file), target)
          : path.join(repoRoot, file);
        if (!fs.existsSync(resolved)) broken.push(`${file}: ${link} (no such file)`);
        else if (fragment && resolved.endsWith('.md') && !anchorsOf(resolved).has(fragment))
          broken.push(`${file}: ${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
