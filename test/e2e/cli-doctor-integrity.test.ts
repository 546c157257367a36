// `groove doctor`'s integrity checks on real indexes: each case damages a fresh copy of a healthy index with direct
// SQL in one way and expects exactly the findings that damage causes, with exit 1 and the file left unchanged.
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDoctorFixture,
  type DoctorFixture,
  hashFile,
  type IndexKind,
} from '../support/doctor-fixture.js';

let fixture: DoctorFixture;
beforeAll(async () => {
  fixture = await createDoctorFixture();
});
afterAll(() => fixture.cleanup());

/** The first chunk of a document with three chunks (so moving one away leaves the document two). */
const FIRST_CHUNK = `(SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id
  WHERE d.path = 'guides/password-reset.md' ORDER BY c.chunk_index LIMIT 1)`;
const A_DOCUMENT = "(SELECT id FROM documents WHERE path = 'ops/backup-runbook.md')";

interface DamageCase {
  name: string;
  kind: IndexKind;
  sql: string;
  /** The findings expected, in report order (errors first), with their counts. */
  expected: [check: string, count: number][];
  /** A text the first finding's first sample contains. */
  sample?: string;
}

const CASES: DamageCase[] = [
  {
    name: "a chunk's vector deleted",
    kind: 'model',
    sql: `DELETE FROM chunk_vectors WHERE chunk_id = ${FIRST_CHUNK}`,
    expected: [['missing-embedding', 1]],
    sample: 'guides/password-reset.md (chunk 0)',
  },
  {
    name: "a chunk's vector not stored yet, its chunk still queued (a run stopped while embedding)",
    kind: 'model',
    sql: `DELETE FROM chunk_vectors WHERE chunk_id = ${FIRST_CHUNK};
      INSERT INTO embedding_queue(chunk_id, input_chars) VALUES (${FIRST_CHUNK}, 100)`,
    expected: [['embedding-pending', 1]],
    sample: 'guides/password-reset.md (chunk 0)',
  },
  {
    name: 'a vector of no chunk inserted',
    kind: 'model',
    sql: 'INSERT INTO chunk_vectors(chunk_id, embedding) VALUES (424242, zeroblob(128))',
    expected: [['orphan-embedding', 1]],
    sample: 'chunk id 424242',
  },
  {
    name: 'a vector of the wrong size',
    kind: 'model',
    sql: `UPDATE chunk_vectors SET embedding = zeroblob(12) WHERE chunk_id = ${FIRST_CHUNK}`,
    expected: [['embedding-wrong-size', 1]],
    sample: '12 bytes',
  },
  {
    name: 'the vector table dropped',
    kind: 'lexical',
    sql: 'DROP TABLE chunk_vectors',
    expected: [['vector-table-missing', 1]],
  },
  {
    name: 'a row deleted from fts_words',
    kind: 'lexical',
    sql: `DELETE FROM fts_words WHERE rowid = ${FIRST_CHUNK}`,
    expected: [['missing-fts-row', 1]],
    sample: 'guides/password-reset.md (chunk 0) in fts_words',
  },
  {
    name: 'a row of no chunk inserted into fts_chunks',
    kind: 'lexical',
    sql: "INSERT INTO fts_chunks(rowid, heading, context, content) VALUES (424242, 'h', 'c', 'ghost text')",
    expected: [['orphan-fts-row', 1]],
    sample: 'fts_chunks rowid 424242',
  },
  {
    name: 'the trigram table dropped',
    kind: 'lexical',
    sql: 'DROP TABLE fts_chunks',
    expected: [['fts-table-missing', 2]],
  },
  {
    // With foreign keys on, the vectors and word counts go with the chunks; their contentless FTS rows stay.
    name: "a document's chunks deleted",
    kind: 'model',
    sql: `PRAGMA foreign_keys = ON; DELETE FROM chunks WHERE document_id = ${A_DOCUMENT}`,
    expected: [
      ['document-without-chunks', 1],
      ['orphan-fts-row', 6],
    ],
    sample: 'ops/backup-runbook.md',
  },
  {
    name: 'a chunk moved to a document that does not exist',
    kind: 'lexical',
    sql: `UPDATE chunks SET document_id = 424242 WHERE id = ${FIRST_CHUNK}`,
    expected: [['chunk-without-document', 1]],
    sample: '(document id 424242)',
  },
  {
    name: 'word-count rows deleted',
    kind: 'lexical',
    sql: `DELETE FROM chunk_word_counts WHERE chunk_id IN (SELECT id FROM chunks WHERE document_id = ${A_DOCUMENT})`,
    expected: [['word-counts-missing', 3]],
    sample: 'ops/backup-runbook.md (chunk 0)',
  },
  {
    name: 'a word-count row emptied',
    kind: 'lexical',
    sql: `UPDATE chunk_word_counts SET counts = X'00' WHERE chunk_id = ${FIRST_CHUNK}`,
    expected: [['word-counts-stale', 1]],
    sample: 'tokens counted, fts_words has',
  },
  {
    name: 'a word-count row of no chunk inserted',
    kind: 'lexical',
    sql: "INSERT INTO chunk_word_counts(chunk_id, counts) VALUES (424242, X'00')",
    expected: [['word-counts-stale', 1]],
    sample: 'chunk id 424242',
  },
  {
    name: 'a word-count row naming an unknown term',
    kind: 'lexical',
    // One entry: term id 1,000,000 (varint C0 84 3D; no KB this small has it) once in the heading column.
    sql: `UPDATE chunk_word_counts SET counts = X'01C0843D010000' WHERE chunk_id = ${FIRST_CHUNK}`,
    expected: [['word-counts-stale', 1]],
    sample: 'term ids not in word_terms',
  },
  {
    name: 'an older schema version',
    kind: 'lexical',
    sql: "UPDATE index_meta SET value = '2' WHERE key = 'schema_version'",
    expected: [['schema-outdated', 1]],
  },
  {
    name: 'a newer schema version',
    kind: 'lexical',
    sql: "UPDATE index_meta SET value = '99' WHERE key = 'schema_version'",
    expected: [['schema-newer', 1]],
  },
];

describe('groove doctor finds each kind of damage', () => {
  it.each(CASES)('$name', async ({ kind, sql, expected, sample }) => {
    const dbPath = fixture.freshIndex(kind);
    fixture.damage(dbPath, sql);
    const before = hashFile(dbPath);
    const { code, report } = await fixture.doctorJson(dbPath);
    expect(code).toBe(1);
    expect(report.findings.map((f) => [f.check, f.count])).toEqual(expected);
    if (sample) expect(report.findings[0]!.samples[0]).toContain(sample);
    for (const finding of report.findings) {
      expect(finding.remedy).toMatch(/groove index/);
      expect(report.checked).toContain(finding.check);
    }
    expect(hashFile(dbPath)).toBe(before);
  });

  it('names at most five samples and says how many more there are', async () => {
    const dbPath = fixture.freshIndex('model');
    fixture.damage(dbPath, 'DELETE FROM chunk_vectors');
    const { report } = await fixture.doctorJson(dbPath);
    const [finding] = report.findings;
    expect(finding).toMatchObject({ check: 'missing-embedding', severity: 'error', count: report.chunks });
    expect(finding!.samples).toHaveLength(5);
    const text = await fixture.groove(['doctor', '--kb-path', fixture.kbPath, '--db-path', dbPath]);
    expect(text.stdout).toContain(`… and ${report.chunks - 5} more`);
  });

  it('reports pages SQLite finds damaged, and keeps running the other checks', async () => {
    const dbPath = fixture.freshIndex('lexical');
    const page = pageOf(dbPath, 'documents_hash');
    const fd = fs.openSync(dbPath, 'r+');
    try {
      // The leaf page's cell pointers (after its 8-byte header) now point outside the page.
      fs.writeSync(fd, Buffer.alloc(64, 0x77), 0, 64, page.offset + 8);
    } finally {
      fs.closeSync(fd);
    }
    const { code, report } = await fixture.doctorJson(dbPath);
    expect(code).toBe(1);
    expect(report.findings[0]).toMatchObject({ check: 'database-damaged', severity: 'error' });
    expect(report.findings[0]!.samples[0]).toMatch(/^Tree \d+ page \d+/);
    expect(report.checked.length).toBeGreaterThan(10);
  });
});

/** Where the root page of a table or index starts in the file. */
function pageOf(dbPath: string, name: string): { offset: number } {
  const db = new Database(dbPath, { readonly: true });
  try {
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const root = db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').pluck().get(name) as number;
    return { offset: (root - 1) * pageSize };
  } finally {
    db.close();
  }
}
