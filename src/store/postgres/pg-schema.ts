// The PostgreSQL schema of groove's shared store: the only DDL for that backend (PostgreSQL 15 SQL). Every table
// carries kb_id, so several knowledge bases share one database and every statement names its KB.
import { COORDINATION_SCHEMA_SQL } from './commit-notices.js';

/** Bump when the schema changes; every statement below is idempotent. */
export const PG_SCHEMA_VERSION = 2;

const KB = 'kb_id integer NOT NULL';
const CASCADE_KB = 'REFERENCES groove_kbs(id) ON DELETE CASCADE';

/**
 * The tables mirror the SQLite index's (store/open-database.ts) column for column, so a document's rows move
 * between the two without translation. No FTS or trigram tables: the lexical legs rank from the stored word
 * counts in the SQLite working copy (docs/decisions/0004-postgres-storage.md).
 */
export const PG_MIGRATIONS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS groove_schema (version integer NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS groove_kbs (
     id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     name text NOT NULL UNIQUE,
     generation bigint NOT NULL DEFAULT 0,
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE TABLE IF NOT EXISTS groove_meta (
     ${KB} ${CASCADE_KB}, key text NOT NULL, value text NOT NULL, PRIMARY KEY (kb_id, key))`,
  `CREATE TABLE IF NOT EXISTS groove_documents (
     ${KB} ${CASCADE_KB},
     id integer NOT NULL,
     path text NOT NULL,
     title text NOT NULL,
     topic text,
     category text,
     date text,
     tags text NOT NULL,
     metadata text NOT NULL,
     frontmatter_error text,
     content_hash text NOT NULL,
     size_bytes bigint NOT NULL,
     mtime_ms double precision NOT NULL,
     last_indexed text NOT NULL,
     PRIMARY KEY (kb_id, id),
     UNIQUE (kb_id, path)
   )`,
  `CREATE TABLE IF NOT EXISTS groove_chunks (
     ${KB},
     id integer NOT NULL,
     document_id integer NOT NULL,
     chunk_index integer NOT NULL,
     heading text,
     level integer,
     context text NOT NULL,
     content text NOT NULL,
     byte_start integer NOT NULL,
     byte_end integer NOT NULL,
     token_count integer NOT NULL,
     quality_score double precision NOT NULL,
     embed_key text,
     PRIMARY KEY (kb_id, id),
     FOREIGN KEY (kb_id, document_id) REFERENCES groove_documents(kb_id, id) ON DELETE CASCADE
   )`,
  `CREATE INDEX IF NOT EXISTS groove_chunks_document ON groove_chunks(kb_id, document_id)`,
  `CREATE TABLE IF NOT EXISTS groove_word_terms (
     ${KB} ${CASCADE_KB}, term text NOT NULL, id integer NOT NULL, PRIMARY KEY (kb_id, term))`,
  `CREATE TABLE IF NOT EXISTS groove_chunk_word_counts (
     ${KB}, chunk_id integer NOT NULL, counts bytea NOT NULL,
     PRIMARY KEY (kb_id, chunk_id),
     FOREIGN KEY (kb_id, chunk_id) REFERENCES groove_chunks(kb_id, id) ON DELETE CASCADE)`,
  `CREATE TABLE IF NOT EXISTS groove_embedding_queue (
     ${KB}, chunk_id integer NOT NULL, input_chars integer NOT NULL,
     PRIMARY KEY (kb_id, chunk_id),
     FOREIGN KEY (kb_id, chunk_id) REFERENCES groove_chunks(kb_id, id) ON DELETE CASCADE)`,
  `CREATE TABLE IF NOT EXISTS groove_links (
     ${KB},
     document_id integer NOT NULL,
     position integer NOT NULL,
     kind text NOT NULL,
     written text NOT NULL,
     target text NOT NULL,
     anchored integer NOT NULL,
     heading text,
     name_key text NOT NULL,
     PRIMARY KEY (kb_id, document_id, position),
     FOREIGN KEY (kb_id, document_id) REFERENCES groove_documents(kb_id, id) ON DELETE CASCADE
   )`,
  `CREATE TABLE IF NOT EXISTS groove_document_names (
     ${KB}, name text NOT NULL, document_id integer NOT NULL,
     PRIMARY KEY (kb_id, name, document_id),
     FOREIGN KEY (kb_id, document_id) REFERENCES groove_documents(kb_id, id) ON DELETE CASCADE)`,
  `CREATE TABLE IF NOT EXISTS groove_feedback_serves (
     ${KB} ${CASCADE_KB}, id integer NOT NULL, recorded_at text NOT NULL, task_id text NOT NULL,
     query text NOT NULL, PRIMARY KEY (kb_id, id))`,
  `CREATE TABLE IF NOT EXISTS groove_feedback_items (
     ${KB},
     serve_id integer NOT NULL,
     position integer NOT NULL,
     path text NOT NULL,
     heading text,
     verdict text NOT NULL,
     always_served integer NOT NULL,
     PRIMARY KEY (kb_id, serve_id, position),
     FOREIGN KEY (kb_id, serve_id) REFERENCES groove_feedback_serves(kb_id, id) ON DELETE CASCADE
   )`,
  // Version 2: the commit log replicas follow (keyed by the KB's name, which a --force rebuild keeps).
  COORDINATION_SCHEMA_SQL,
];

/**
 * Vectors need pgvector, so their table is created only for a KB with a model: a server without the extension
 * still serves lexical-only KBs. `vector` without a dimension: each KB's model decides its own.
 */
export const PG_VECTOR_MIGRATIONS: readonly string[] = [
  'CREATE EXTENSION IF NOT EXISTS vector',
  `CREATE TABLE IF NOT EXISTS groove_chunk_vectors (
     ${KB}, chunk_id integer NOT NULL, embedding vector NOT NULL,
     PRIMARY KEY (kb_id, chunk_id),
     FOREIGN KEY (kb_id, chunk_id) REFERENCES groove_chunks(kb_id, id) ON DELETE CASCADE)`,
];

/** Per-document tables in the order rows are inserted (parents first); deletes cascade from groove_documents. */
export const DOCUMENT_TABLES = {
  chunks: 'groove_chunks',
  wordCounts: 'groove_chunk_word_counts',
  queue: 'groove_embedding_queue',
  links: 'groove_links',
  names: 'groove_document_names',
} as const;
