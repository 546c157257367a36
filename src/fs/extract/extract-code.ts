// Source code → sections that tile the file: each definition (function, class, method, …) with the comments
// directly above it is one section, headed `<kind> <name>` with its enclosing definitions as ancestors; the code
// between definitions is a section of its own. A definition over the size bound is split into its nested
// definitions (its own lines between them stay with it). Grammars: tree-sitter WASM from @vscode/tree-sitter-wasm.
import { createRequire } from 'node:module';
import path from 'node:path';
import { countUtf8Bytes } from '../../core/utf8-bytes.js';
import type { ExtractedSection, Extraction } from '../../document/extracted-document.js';
import type { ExtractionLimits } from './extract-job.js';

const require = createRequire(import.meta.url);

interface SyntaxNode {
  type: string;
  startIndex: number;
  endIndex: number;
  text: string;
  namedChildren: SyntaxNode[];
  childForFieldName(name: string): SyntaxNode | null;
  hasError: boolean;
}
interface TreeSitter {
  Parser: {
    init(): Promise<void>;
    new (): {
      setLanguage(language: unknown): void;
      parse(text: string): { rootNode: SyntaxNode; delete(): void } | null;
      delete(): void;
    };
  };
  Language: { load(file: string): Promise<unknown> };
}

/** Definition node types → the word used in the heading. */
const DEFINITION_KINDS: Record<string, string> = {
  function_declaration: 'function',
  generator_function_declaration: 'function',
  function_definition: 'function',
  function_item: 'function',
  function_signature_item: 'function',
  method_definition: 'method',
  method_declaration: 'method',
  constructor_declaration: 'constructor',
  method: 'method',
  singleton_method: 'method',
  class_declaration: 'class',
  abstract_class_declaration: 'class',
  class_definition: 'class',
  class_specifier: 'class',
  class: 'class',
  interface_declaration: 'interface',
  trait_declaration: 'trait',
  trait_item: 'trait',
  type_alias_declaration: 'type',
  type_declaration: 'type',
  type_item: 'type',
  enum_declaration: 'enum',
  enum_item: 'enum',
  struct_item: 'struct',
  struct_specifier: 'struct',
  struct_declaration: 'struct',
  impl_item: 'impl',
  mod_item: 'module',
  module: 'module',
  internal_module: 'namespace',
  namespace_declaration: 'namespace',
  namespace_definition: 'namespace',
  macro_definition: 'macro',
};

const COMMENT_TYPES = new Set(['comment', 'line_comment', 'block_comment', 'doc_comment']);
/** Deeper than this, definitions are not looked for (their text stays in the enclosing section). */
const MAX_DEPTH = 64;
/** More definitions than this in one file: it is chunked as plain text instead (tagged `parse:too-many-chunks`). */
export const MAX_DEFINITIONS = 512;
/**
 * A file longer than this (UTF-16 code units, as JavaScript counts) is chunked as plain text without being parsed
 * (tagged `parse:too-large`): a syntax tree costs hundreds of bytes of memory per byte of dense code (a minified
 * bundle), which the extraction process's memory bound would otherwise stop.
 */
export const MAX_PARSE_CHARS = 1024 * 1024;

let treeSitter: Promise<TreeSitter> | null = null;
const languages = new Map<string, Promise<unknown>>();

function grammarFolder(): string {
  return path.join(path.dirname(require.resolve('@vscode/tree-sitter-wasm')));
}

async function languageFor(grammar: string): Promise<{ ts: TreeSitter; language: unknown }> {
  treeSitter ??= (async () => {
    const ts = require('@vscode/tree-sitter-wasm') as TreeSitter;
    await ts.Parser.init();
    return ts;
  })();
  const ts = await treeSitter;
  let language = languages.get(grammar);
  if (!language) {
    language = ts.Language.load(path.join(grammarFolder(), `tree-sitter-${grammar}.wasm`));
    languages.set(grammar, language);
  }
  return { ts, language: await language };
}

/** Initialise tree-sitter and load the grammar now, so a job's deadline never covers it. */
export async function preloadGrammar(grammar: string): Promise<void> {
  await languageFor(grammar);
}

interface Unit {
  start: number;
  end: number;
  heading: string | null;
  ancestors: string[];
}

export async function extractCode(
  text: string,
  grammar: string,
  language: string,
  limits: ExtractionLimits,
): Promise<Extraction> {
  const tags = ['code', `lang:${language}`];
  if (text.length > MAX_PARSE_CHARS) return plainExtraction(text, [...tags, 'parse:too-large']);
  const { ts, language: grammarLanguage } = await languageFor(grammar);
  const parser = new ts.Parser();
  try {
    parser.setLanguage(grammarLanguage);
    const tree = parser.parse(text);
    if (!tree) return plainExtraction(text, tags);
    try {
      if (tree.rootNode.hasError) tags.push('parse:degraded');
      const units: Unit[] = [];
      const walk = { tooDeep: false };
      collect(tree.rootNode, [], 0, text, limits.chunkBytes, units, walk);
      if (walk.tooDeep) tags.push('parse:too-deep');
      if (units.length > MAX_DEFINITIONS) return plainExtraction(text, [...tags, 'parse:too-many-chunks']);
      return { title: null, date: null, tags, sections: tile(text, units), verbatim: true, truncated: false };
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
}

function plainExtraction(text: string, tags: string[]): Extraction {
  return {
    title: null,
    date: null,
    tags,
    sections: [{ heading: null, level: null, ancestors: [], text }],
    verbatim: true,
    truncated: false,
  };
}

/** The definition node a child stands for (an `export` or decorator wrapper counts as its definition). */
function definitionOf(node: SyntaxNode): SyntaxNode | null {
  if (DEFINITION_KINDS[node.type]) return node;
  if (node.type === 'export_statement' || node.type === 'decorated_definition') {
    const inner = node.childForFieldName('declaration') ?? node.childForFieldName('definition');
    if (inner && DEFINITION_KINDS[inner.type]) return inner;
  }
  if (node.type === 'lexical_declaration' || node.type === 'variable_declaration') {
    const declarator = node.namedChildren.find((child) => child.type === 'variable_declarator');
    const value = declarator?.childForFieldName('value');
    if (value && /^(arrow_function|function_expression|function|class)$/.test(value.type)) return node;
  }
  return null;
}

function nameOf(node: SyntaxNode): string {
  if (node.type === 'lexical_declaration' || node.type === 'variable_declaration') {
    const declarator = node.namedChildren.find((child) => child.type === 'variable_declarator');
    return declarator?.childForFieldName('name')?.text ?? '';
  }
  if (node.type === 'impl_item') {
    const type = node.childForFieldName('type')?.text ?? '';
    const trait = node.childForFieldName('trait')?.text;
    return trait ? `${trait} for ${type}` : type;
  }
  if (node.type === 'type_declaration') {
    const spec = node.namedChildren.find(
      (child) => child.type === 'type_spec' || child.type === 'type_alias',
    );
    return spec?.childForFieldName('name')?.text ?? '';
  }
  const named = node.childForFieldName('name');
  if (named) return named.text;
  // C and C++ put the name inside the declarator.
  let declarator = node.childForFieldName('declarator');
  while (declarator?.childForFieldName('declarator')) declarator = declarator.childForFieldName('declarator');
  return declarator?.text ?? '';
}

function headingOf(node: SyntaxNode): string {
  const kind =
    node.type === 'lexical_declaration' || node.type === 'variable_declaration'
      ? 'function'
      : DEFINITION_KINDS[node.type]!;
  const name = nameOf(node).replace(/\s+/g, ' ').slice(0, 120);
  return name === '' ? kind : `${kind} ${name}`;
}

/** Find definitions under `node`; an oversized one with nested definitions is split into them. */
function collect(
  node: SyntaxNode,
  ancestors: string[],
  depth: number,
  text: string,
  maxBytes: number,
  units: Unit[],
  walk: { tooDeep: boolean },
): void {
  if (depth > MAX_DEPTH) {
    walk.tooDeep = true;
    return;
  }
  const children = node.namedChildren;
  for (const [i, child] of children.entries()) {
    const definition = definitionOf(child);
    if (!definition) {
      collect(child, ancestors, depth + 1, text, maxBytes, units, walk);
      continue;
    }
    const heading = headingOf(definition);
    const start = commentStart(children, i, text);
    const size = countUtf8Bytes(text, start, child.endIndex);
    const nested: Unit[] = [];
    if (size > maxBytes) collect(child, [...ancestors, heading], depth + 1, text, maxBytes, nested, walk);
    if (nested.length === 0) {
      units.push({ start, end: child.endIndex, heading, ancestors });
      continue;
    }
    // The definition's own lines around its nested ones stay under its heading.
    let at = start;
    for (const inner of nested) {
      if (inner.start > at) units.push({ start: at, end: inner.start, heading, ancestors });
      units.push(inner);
      at = inner.end;
    }
    if (child.endIndex > at) units.push({ start: at, end: child.endIndex, heading, ancestors });
  }
}

/** Start of the comments directly above child i (no blank line between), else the child's own start. */
function commentStart(siblings: SyntaxNode[], i: number, text: string): number {
  let start = siblings[i]!.startIndex;
  for (let k = i - 1; k >= 0; k--) {
    const sibling = siblings[k]!;
    if (!COMMENT_TYPES.has(sibling.type)) break;
    if (/\n[ \t]*\r?\n/.test(text.slice(sibling.endIndex, start))) break;
    start = sibling.startIndex;
  }
  return start;
}

/** Sections tiling the whole text: the units, and the code between them as heading-less sections. */
function tile(text: string, units: Unit[]): ExtractedSection[] {
  const sections: ExtractedSection[] = [];
  let at = 0;
  const gap = (end: number) => {
    if (end > at) sections.push({ heading: null, level: null, ancestors: [], text: text.slice(at, end) });
  };
  for (const unit of units.sort((a, b) => a.start - b.start)) {
    if (unit.start < at) continue; // overlapping ranges collapse into the first
    // Start each section at its line's beginning, so indentation stays with it.
    const lineStart = text.lastIndexOf('\n', unit.start - 1) + 1;
    const start =
      /^[ \t]*$/.test(text.slice(lineStart, unit.start)) && lineStart >= at ? lineStart : unit.start;
    gap(start);
    sections.push({
      heading: unit.heading,
      level: Math.min(2 + unit.ancestors.length, 6),
      ancestors: unit.ancestors,
      text: text.slice(start, unit.end),
    });
    at = unit.end;
  }
  gap(text.length);
  return sections;
}
