// Multi-row INSERTs and row reads for the shared store's tables: every statement is scoped to one kb_id.
import type pg from 'pg';
import type { StoredRow } from '../../core/index-storage.js';

/** PostgreSQL takes at most 65,535 parameters per statement; stay well below it. */
const MAX_PARAMETERS = 30_000;

/**
 * Insert `rows` (all with the same columns) into `table` under `kbId`, in as few statements as the parameter
 * limit allows. `casts` names a column's SQL type where the driver's text needs one (a vector).
 */
export async function insertRows(
  client: pg.ClientBase,
  table: string,
  kbId: number,
  rows: readonly StoredRow[],
  casts: Readonly<Record<string, string>> = {},
): Promise<void> {
  const first = rows[0];
  if (!first) return;
  const columns = Object.keys(first);
  const perBatch = Math.max(1, Math.floor(MAX_PARAMETERS / (columns.length + 1)));
  for (let start = 0; start < rows.length; start += perBatch) {
    const batch = rows.slice(start, start + perBatch);
    const values: unknown[] = [];
    const tuples = batch.map((row) => {
      values.push(kbId);
      const slots = [`$${values.length}`];
      for (const column of columns) {
        values.push(row[column] ?? null);
        const cast = casts[column];
        slots.push(cast ? `$${values.length}::${cast}` : `$${values.length}`);
      }
      return `(${slots.join(', ')})`;
    });
    await client.query(
      `INSERT INTO ${table} (kb_id, ${columns.join(', ')}) VALUES ${tuples.join(', ')}`,
      values,
    );
  }
}

/** Every row of `table` under `kbId`, in `order`, without the kb_id column. */
export function readRows(
  client: pg.ClientBase,
  table: string,
  kbId: number,
  order: string,
): Promise<StoredRow[]> {
  return readRowsWhere(client, table, kbId, order, 'true', []);
}

/**
 * The rows of `table` under `kbId` that `condition` selects (SQL over the table's columns with `$2`, `$3`… bound
 * to `values`), in `order`, without the kb_id column.
 */
export async function readRowsWhere(
  client: pg.ClientBase,
  table: string,
  kbId: number,
  order: string,
  condition: string,
  values: readonly unknown[],
): Promise<StoredRow[]> {
  const result = await client.query(
    `SELECT * FROM ${table} WHERE kb_id = $1 AND ${condition} ORDER BY ${order}`,
    [kbId, ...values],
  );
  return result.rows.map((row: Record<string, StoredRow[string]>) => {
    const { kb_id: _kb, ...rest } = row;
    return rest;
  });
}
