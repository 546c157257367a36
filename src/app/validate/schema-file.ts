// Reads the frontmatter schema through the checked reads every KB file goes through (one handle, no links, no
// hard links, a regular file, a size cap, strict UTF-8 without NUL bytes) and compiles it (composition root).

import { GrooveError } from '../../errors.js';
import { decodeUtf8Text, readCheckedFile } from '../../fs/checked-read.js';
import { compileValidationSchema, type ValidationSchema } from './validation-schema.js';

/** The schema's file name inside the KB, used when no --schema is given. */
export const DEFAULT_SCHEMA_FILE = 'groove-schema.toml';
/** A schema is a few dozen lines; anything near this size is not one. */
const MAX_SCHEMA_BYTES = 1024 * 1024;

export type LoadedSchema = { found: true; schema: ValidationSchema } | { found: false };

/**
 * Load the schema at `schemaPath`. The default schema may be absent (nothing to validate); a schema named
 * explicitly must exist (SCHEMA_NOT_FOUND). Anything that exists but cannot be used is SCHEMA_INVALID.
 */
export function loadSchemaFile(schemaPath: string, explicit: boolean): LoadedSchema {
  const read = readCheckedFile(schemaPath, { maxBytes: MAX_SCHEMA_BYTES });
  if (!read.ok && read.reason === 'vanished') {
    if (!explicit) return { found: false };
    throw new GrooveError('SCHEMA_NOT_FOUND', `schema "${schemaPath}" does not exist`, {
      hint: `check the --schema path, or leave it out to use <kb>/${DEFAULT_SCHEMA_FILE}`,
    });
  }
  if (!read.ok) throw refused(schemaPath, read.detail);
  const decoded = decodeUtf8Text(read.bytes);
  if (!decoded.ok) throw refused(schemaPath, decoded.detail);
  return { found: true, schema: compileValidationSchema(decoded.text, schemaPath) };
}

function refused(schemaPath: string, detail: string): GrooveError {
  return new GrooveError('SCHEMA_INVALID', `schema "${schemaPath}" cannot be used: ${detail}`, {
    hint: 'the schema must be a regular UTF-8 text file of at most 1 MiB, not a symbolic or hard link',
  });
}
