// The index as doctor reads it: a read-only connection (no migration, no write) and the integrity queries over it
// (composition root).
import { IntegrityReader } from '../../store/index-integrity.js';
import { openDatabase } from '../../store/open-database.js';
import { SAMPLE_LIMIT } from './doctor-report.js';

export { SCHEMA_VERSION as CURRENT_SCHEMA_VERSION } from '../../store/open-database.js';

export interface DoctorDatabase {
  reader: IntegrityReader;
  close(): void;
}

/**
 * Open the index read-only. A missing file is INDEX_NOT_FOUND, someone else's file DB_NOT_INDEX and a file SQLite
 * cannot read DB_CORRUPT: doctor cannot run on those.
 */
export function openDoctorDatabase(dbPath: string, kbPath?: string): DoctorDatabase {
  const db = openDatabase(dbPath, { readonly: true, kbPath });
  return { reader: new IntegrityReader(db, SAMPLE_LIMIT), close: () => db.close() };
}
