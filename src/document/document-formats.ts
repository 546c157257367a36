// The parser registry as data: each parser id of `[parsers] enabled`, the file extensions it claims, and for the
// `code` parser the languages it knows (with the tree-sitter grammar of each, when groove ships one).

/** Parser ids accepted in `[parsers] enabled`. */
export const PARSER_IDS = ['md', 'txt', 'pdf', 'docx', 'xlsx', 'pptx', 'code'] as const;
export type ParserId = (typeof PARSER_IDS)[number];

/** Formats whose bytes are not text: read as bytes, their text extracted by the extraction process (fs/extract). */
export const BINARY_FORMATS = ['pdf', 'docx', 'xlsx', 'pptx'] as const;
export type BinaryFormat = (typeof BINARY_FORMATS)[number];

export interface CodeLanguage {
  /** The id written in `[parsers.code] languages`. */
  id: string;
  extensions: readonly string[];
  /** The grammar file's stem (`tree-sitter-<grammar>.wasm`), or null: chunked as plain text. */
  grammar: string | null;
}

/** Every language `[parsers.code] languages` accepts. */
export const CODE_LANGUAGES: readonly CodeLanguage[] = [
  { id: 'typescript', extensions: ['ts', 'mts', 'cts'], grammar: 'typescript' },
  { id: 'tsx', extensions: ['tsx'], grammar: 'tsx' },
  { id: 'javascript', extensions: ['js', 'mjs', 'cjs', 'jsx'], grammar: 'javascript' },
  { id: 'python', extensions: ['py', 'pyi'], grammar: 'python' },
  { id: 'rust', extensions: ['rs'], grammar: 'rust' },
  { id: 'go', extensions: ['go'], grammar: 'go' },
  { id: 'java', extensions: ['java'], grammar: 'java' },
  { id: 'csharp', extensions: ['cs'], grammar: 'c-sharp' },
  { id: 'cpp', extensions: ['cpp', 'cc', 'cxx', 'hpp', 'hh', 'hxx'], grammar: 'cpp' },
  { id: 'ruby', extensions: ['rb'], grammar: 'ruby' },
  { id: 'php', extensions: ['php'], grammar: 'php' },
  { id: 'shell', extensions: ['sh', 'bash'], grammar: 'bash' },
  // No grammar shipped: these are indexed by plain-text chunking.
  { id: 'c', extensions: ['c', 'h'], grammar: null },
  { id: 'kotlin', extensions: ['kt', 'kts'], grammar: null },
  { id: 'swift', extensions: ['swift'], grammar: null },
  { id: 'scala', extensions: ['scala'], grammar: null },
  { id: 'lua', extensions: ['lua'], grammar: null },
  { id: 'sql', extensions: ['sql'], grammar: null },
];

export const CODE_LANGUAGE_IDS = CODE_LANGUAGES.map((language) => language.id);

/** `[parsers.code] languages` when not set. */
export const DEFAULT_CODE_LANGUAGES = ['typescript', 'tsx', 'javascript', 'python', 'rust', 'go'];

/** The format a file goes to. `code` files carry their language. */
export type DocumentFormat = 'md' | 'txt' | BinaryFormat | 'code';

const FIXED_EXTENSIONS: Record<Exclude<ParserId, 'code'>, readonly string[]> = {
  md: ['md'],
  txt: ['txt'],
  pdf: ['pdf'],
  docx: ['docx'],
  xlsx: ['xlsx'],
  pptx: ['pptx'],
};

/** The extensions (no dot, lower case) the enabled parsers claim; the walk, the watcher and get_document use them. */
export function extensionsOfParsers(enabled: readonly string[], codeLanguages: readonly string[]): string[] {
  const out = new Set<string>();
  for (const id of enabled) {
    if (id === 'code') {
      for (const language of CODE_LANGUAGES) {
        if (codeLanguages.includes(language.id)) for (const ext of language.extensions) out.add(ext);
      }
    } else for (const ext of FIXED_EXTENSIONS[id as Exclude<ParserId, 'code'>] ?? []) out.add(ext);
  }
  return [...out];
}

function extensionOf(relPath: string): string {
  const name = relPath.slice(relPath.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The code language of a path by its extension, or null. */
export function codeLanguageOfPath(relPath: string): CodeLanguage | null {
  const ext = extensionOf(relPath);
  return CODE_LANGUAGES.find((language) => language.extensions.includes(ext)) ?? null;
}

/**
 * The one rule for which parser a file goes to, by its extension: `.txt` plain text, the office and PDF
 * extensions their extractor, a known source extension `code`, everything else enabled is Markdown.
 */
export function formatOfPath(relPath: string): DocumentFormat {
  const ext = extensionOf(relPath);
  if (ext === 'txt') return 'txt';
  if ((BINARY_FORMATS as readonly string[]).includes(ext)) return ext as BinaryFormat;
  if (codeLanguageOfPath(relPath)) return 'code';
  return 'md';
}

/** Whether a format is read as bytes and extracted (PDF and the OOXML formats). */
export function isBinaryFormat(format: DocumentFormat): format is BinaryFormat {
  return (BINARY_FORMATS as readonly string[]).includes(format);
}

/** Only Markdown carries frontmatter; every other format is read as it is. */
export function formatCarriesFrontmatter(format: DocumentFormat): boolean {
  return format === 'md';
}
