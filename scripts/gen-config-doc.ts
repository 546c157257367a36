// Regenerates the groove.toml key reference of docs/configuration.md from the table of keys.
// Usage: npx tsx scripts/gen-config-doc.ts
import fs from 'node:fs';
import path from 'node:path';
import { spliceConfigSection } from './config-doc.js';

const doc = path.resolve(import.meta.dirname, '../docs/configuration.md');
fs.writeFileSync(doc, spliceConfigSection(fs.readFileSync(doc, 'utf8')));
process.stdout.write(`updated ${path.relative(process.cwd(), doc)}\n`);
