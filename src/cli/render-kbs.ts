// What `groove kb list` and `groove kb show` print as text: a table of KBs, or one KB's settings and index.
import { displayPath, type KbListing, type KbOverview } from '../app/index.js';

const COLUMNS = ['NAME', 'PATH', 'DOCS', 'CHUNKS', 'MODEL', 'LAST INDEXED', 'SIZE', 'HEALTH'] as const;

export function renderKbList(listing: KbListing): string {
  if (listing.kbs.length === 0) {
    return `No KB registered in ${displayPath(listing.registry)}; add one with \`groove kb add NAME PATH\`.\n`;
  }
  const rows = listing.kbs.map((kb) => [
    kb.entry.name,
    displayPath(kb.entry.root),
    count(kb.documents),
    count(kb.chunks),
    kb.model ?? '-',
    kb.lastIndexedAt ?? '-',
    kb.sizeBytes === null ? '-' : formatBytes(kb.sizeBytes),
    kb.problem ? `${kb.health}: ${kb.problem}` : kb.health,
  ]);
  const widths = COLUMNS.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return `${[line(COLUMNS), ...rows.map(line)].join('\n')}\n`;
}

export function renderKbShow(kb: KbOverview): string {
  const { entry } = kb;
  const lines = [
    `KB:            ${entry.name}`,
    `Folder:        ${displayPath(entry.root)}`,
    `Health:        ${kb.problem ? `${kb.health}: ${kb.problem}` : kb.health}`,
    `Config file:   ${entry.configFile === null ? '-' : displayPath(entry.configFile)}`,
    `Model:         ${kb.model ?? '-'}${entry.model === null ? '' : ' (set in the registry)'}`,
    `Parsers:       ${kb.parsers.join(', ') || '-'}${entry.parsers === null ? '' : ' (set in the registry)'}`,
    `Index:         ${kb.dbPath === null ? '-' : displayPath(kb.dbPath)}${kb.backend === 'postgres' ? ' (PostgreSQL working copy)' : ''}`,
    `Documents:     ${count(kb.documents)}`,
    `Chunks:        ${count(kb.chunks)}`,
    `Last indexed:  ${kb.lastIndexedAt ?? '-'}`,
    `Size on disk:  ${kb.sizeBytes === null ? '-' : formatBytes(kb.sizeBytes)}`,
  ];
  return `${lines.join('\n')}\n`;
}

function count(value: number | null): string {
  return value === null ? '-' : String(value);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
