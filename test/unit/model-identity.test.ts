// The identity an index records (index_meta), with its pooling and prefixes: the round trip, indexes from before
// they were recorded, the mismatch rule and which recorded setup a command follows.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  adoptIndexModel,
  assertSameIdentity,
  type IndexIdentity,
  identityFromMeta,
  identityToMeta,
} from '../../src/app/embedding/model-identity.js';
import { resolveConfig } from '../../src/config/resolve-config.js';
import { GrooveError } from '../../src/errors.js';

const folder = path.resolve('/models/bare');
const folderIndex: IndexIdentity = {
  model: `transformers:${folder}`,
  provider: 'transformers',
  dimension: 32,
  contextMode: 'off',
  modelDir: folder,
  setup: {
    pooling: 'cls',
    queryPrefix: 'search: ',
    passagePrefix: '',
    source: 'given: pooling, query prefix',
  },
};

function mismatch(stored: IndexIdentity, wanted: IndexIdentity): GrooveError {
  try {
    assertSameIdentity(stored, wanted, '/kb/.groove.db');
  } catch (error) {
    if (error instanceof GrooveError) return error;
    throw error;
  }
  throw new Error('expected INDEX_MISMATCH');
}

describe('the recorded setup', () => {
  it('survives index_meta', () => {
    expect(identityFromMeta(identityToMeta(folderIndex))).toEqual(folderIndex);
  });

  it('is unknown for a local model of an index built before groove recorded it; none for an endpoint', () => {
    const { embedding_pooling, embedding_query_prefix, embedding_passage_prefix, ...old } =
      identityToMeta(folderIndex);
    expect(identityFromMeta(old)?.setup).toBeNull();
    const endpoint = identityFromMeta({ ...old, embedding_provider: 'ollama', embedding_model_dir: '' });
    expect(endpoint?.setup).toMatchObject({ pooling: null, queryPrefix: '', passagePrefix: '' });
  });

  it('differing in pooling or a prefix is INDEX_MISMATCH with the --force hint', () => {
    const error = mismatch(folderIndex, {
      ...folderIndex,
      setup: { pooling: 'mean', queryPrefix: '', passagePrefix: '', source: 'given: pooling' },
    });
    expect(error.code).toBe('INDEX_MISMATCH');
    expect(error.message).toContain('pooling "cls" vs "mean", query prefix "search: " vs ""');
    expect(error.hint).toContain('groove index --force');
    expect(() => assertSameIdentity({ ...folderIndex, setup: null }, folderIndex, 'db')).not.toThrow();
  });

  it('is followed only by a command on the same folder; unknown becomes the old rule', () => {
    const config = (overrides: { modelDir?: string }) => resolveConfig({ cwd: '/', env: {}, overrides });
    expect(adoptIndexModel(config({}), folderIndex).recordedSetup).toEqual(folderIndex.setup);
    expect(adoptIndexModel(config({ modelDir: folder }), folderIndex).recordedSetup).toEqual(
      folderIndex.setup,
    );
    expect(adoptIndexModel(config({ modelDir: '/models/other' }), folderIndex).recordedSetup).toBeNull();
    expect(adoptIndexModel(config({}), { ...folderIndex, setup: null }).recordedSetup).toBe('unrecorded');
  });
});
