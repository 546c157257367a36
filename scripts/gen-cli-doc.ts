// Regenerates the command reference of docs/cli.md from the command specs.
// Usage: npm run docs:cli
import fs from 'node:fs';
import path from 'node:path';
import { spliceCliReference } from './cli-doc.js';

const doc = path.resolve(import.meta.dirname, '../docs/cli.md');
fs.writeFileSync(doc, spliceCliReference(fs.readFileSync(doc, 'utf8')));
process.stdout.write(`updated ${path.relative(process.cwd(), doc)}\n`);
