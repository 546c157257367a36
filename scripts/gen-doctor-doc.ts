// Regenerates the check table of docs/doctor.md from the doctor's check declarations.
// Usage: npm run docs:doctor
import fs from 'node:fs';
import path from 'node:path';
import { spliceDoctorTable } from './doctor-doc.js';

const doc = path.resolve(import.meta.dirname, '../docs/doctor.md');
fs.writeFileSync(doc, spliceDoctorTable(fs.readFileSync(doc, 'utf8')));
process.stdout.write(`updated ${path.relative(process.cwd(), doc)}\n`);
