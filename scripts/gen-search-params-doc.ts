// Regenerates the "Search parameters" section of docs/configuration.md from the search parameter table.
// Usage: npx tsx scripts/gen-search-params-doc.ts
import fs from 'node:fs';
import path from 'node:path';
import { spliceSearchParamsSection } from './search-params-doc.js';

const doc = path.resolve(import.meta.dirname, '../docs/configuration.md');
fs.writeFileSync(doc, spliceSearchParamsSection(fs.readFileSync(doc, 'utf8')));
process.stdout.write(`updated ${path.relative(process.cwd(), doc)}\n`);
