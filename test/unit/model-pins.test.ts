// Every registered model is pinned to a commit, with the size and SHA-256 of every file groove fetches for it.
import { describe, expect, it } from 'vitest';
import { GrooveError } from '../../src/errors.js';
import { MODEL_PINS, pinFor } from '../../src/models/model-pins.js';
import { EMBEDDING_MODELS, RERANKER_MODELS, requiredModelFiles } from '../../src/models/model-registry.js';

const specs = [...EMBEDDING_MODELS, ...RERANKER_MODELS];

describe('model pins', () => {
  it.each(specs.map((s) => [s.id, s] as const))(
    '%s: a commit, and a size and SHA-256 per required file',
    (_, spec) => {
      const pin = pinFor(spec);
      expect(pin.revision).toMatch(/^[0-9a-f]{40}$/);
      expect(Object.keys(pin.files).sort()).toEqual(requiredModelFiles(spec).sort());
      for (const file of Object.values(pin.files)) {
        expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
        expect(Number.isInteger(file.size) && file.size > 0).toBe(true);
      }
      const totalMB = Object.values(pin.files).reduce((sum, f) => sum + f.size, 0) / 1e6;
      expect(Math.abs(totalMB - spec.downloadMB) / spec.downloadMB).toBeLessThan(0.1);
    },
  );

  it('pins nothing the registry does not list', () => {
    expect(Object.keys(MODEL_PINS).sort()).toEqual(specs.map((s) => s.id).sort());
  });

  it('refuses a pin table that lacks a model or one of its files', () => {
    const spec = EMBEDDING_MODELS[0]!;
    expect(() => pinFor(spec, {})).toThrow(GrooveError);
    const partial = { [spec.id]: { revision: 'a'.repeat(40), files: {} } };
    expect(() => pinFor(spec, partial)).toThrow(/config\.json/);
  });
});
