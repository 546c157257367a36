// The index as doctor reads it: a read-only connection (no migration, no write) and the integrity queries over it
// (composition root). A file that is not a readable groove index is still opened when SQLite can read it, so
// doctor describes what is wrong with it instead of refusing to look.
import { isGrooveError } from '../../errors.js';
import { IntegrityReader } from '../../store/index-integrity.js';
import {
  inspectIndexFile,
  openDatabase,
  openForInspection,
  type SqliteDatabase,
} from '../../store/open-database.js';
import { type DoctorFinding, SAMPLE_LIMIT } from './doctor-report.js';

export { SCHEMA_VERSION as CURRENT_SCHEMA_VERSION } from '../../store/open-database.js';

export interface DoctorDatabase {
  reader: IntegrityReader;
  /** Findings about the file itself, found while opening it (someone else's SQLite file). */
  findings: DoctorFinding[];
  close(): void;
}

/** What doctor could open: the index to check, or the one finding that says why it cannot be read at all. */
export type OpenedForDoctor =
  | { readable: true; database: DoctorDatabase }
  | { readable: false; finding: DoctorFinding };

export const NOT_AN_INDEX_REMEDY =
  'check --db-path (or db_path in groove.toml); groove never writes or replaces this file, so move or remove it yourself before `groove index` builds an index there';
const REBUILD = 'groove index --force (rebuilds the index from the files and swaps it in when complete)';

/**
 * Open the index read-only. A missing file is INDEX_NOT_FOUND (nothing to diagnose); a damaged groove index and
 * someone else's SQLite file are opened as they are, read-only, for the checks to describe.
 */
export function openDoctorDatabase(dbPath: string, kbPath?: string): OpenedForDoctor {
  try {
    return { readable: true, database: doctorDatabase(openDatabase(dbPath, { readonly: true, kbPath })) };
  } catch (error) {
    if (!isGrooveError(error) || (error.code !== 'DB_NOT_INDEX' && error.code !== 'DB_CORRUPT')) throw error;
  }
  const kind = inspectIndexFile(dbPath);
  const groovesOwn = kind === 'index' || kind === 'damaged-index';
  const db = openForInspection(dbPath);
  if (db === null) {
    return {
      readable: false,
      finding: groovesOwn
        ? finding(
            'database-damaged',
            "SQLite cannot read the index file (it carries groove's stamp)",
            REBUILD,
          )
        : finding(
            'not-a-groove-index',
            'the file at the index path is not SQLite, so not a groove index',
            NOT_AN_INDEX_REMEDY,
          ),
    };
  }
  const database = doctorDatabase(db);
  if (!groovesOwn) {
    database.findings.push({
      ...finding(
        'not-a-groove-index',
        "the file at the index path is SQLite without groove's stamp or index_meta table: someone else's database",
        NOT_AN_INDEX_REMEDY,
      ),
      samples: [...database.reader.tables()].slice(0, SAMPLE_LIMIT).map((table) => `table ${table}`),
    });
  }
  return { readable: true, database };
}

function doctorDatabase(db: SqliteDatabase): DoctorDatabase {
  return { reader: new IntegrityReader(db, SAMPLE_LIMIT), findings: [], close: () => db.close() };
}

function finding(check: string, summary: string, remedy: string): DoctorFinding {
  return { check, severity: 'error', summary, count: 1, samples: [], remedy };
}
