// The in-memory bm25 sweep against SQLite itself: on a real index, for every one of the 64 weight sets, the
// lexical leg recomputed from the FTS postings must equal the leg the searcher runs through SQL.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { compileLegQuery, runLexicalLeg } from '../../src/app/search/candidate-legs.js';
import { createPostingsCache, sweepLexicalLeg } from '../../src/app/search/lexical-sweep.js';
import { DEFAULT_CONDITION, WEIGHT_SET_COUNT, weightSetValues } from '../../src/measure/tune-grid.js';
import { createSearchReader, type SearchReader } from '../../src/store/chunk-search.js';
import { createTempKb, type TempKb } from '../support/temp-kb.js';
import { seededRandom } from '../support/tune-tables.js';

const WORDS = [
  'river',
  'stone',
  'lantern',
  'harbor',
  'copper',
  'meadow',
  'signal',
  'orchard',
  'engine',
  'thunder',
  'velvet',
  'glacier',
  'compass',
  'ember',
  'falcon',
  'garden',
  'rivers',
  'stones',
  'mapping',
  'mapped',
];
const POOL = 50;
const DEFAULT_WEIGHT_SET = DEFAULT_CONDITION % WEIGHT_SET_COUNT;

let kb: TempKb;
let db: Database.Database;
let reader: SearchReader;

/** Notes of random words: headings, breadcrumbs and bodies of different lengths, so every column matters. */
function writeNotes(temp: TempKb): void {
  const random = seededRandom(42);
  const pick = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]!);
  for (let d = 0; d < 70; d++) {
    const sections = Array.from({ length: 1 + (d % 3) }, (_, s) =>
      [`## ${pick(1 + (s % 3)).join(' ')}`, '', `${pick(8 + Math.floor(random() * 40)).join(' ')}.`, ''].join(
        '\n',
      ),
    );
    temp.write(
      `notes/${pick(1)[0]}-${d}.md`,
      `# ${pick(2).join(' ')}\n\n${pick(12).join(' ')}.\n\n${sections.join('\n')}`,
    );
  }
}

beforeAll(async () => {
  kb = createTempKb();
  writeNotes(kb);
  const facade = openKnowledgeBase(kb.config({ overrides: { model: 'none' } }));
  try {
    await facade.index();
  } finally {
    await facade.close();
  }
  db = new Database(kb.dbPath, { readonly: true });
  reader = createSearchReader(db);
});
afterAll(() => {
  db?.close();
  kb?.cleanup();
});

function sqlLeg(query: Extract<ReturnType<typeof compileLegQuery>, { kind: 'query' }>, weightSet: number) {
  return runLexicalLeg(reader, query, {
    weights: weightSetValues(weightSet),
    pool: POOL,
    minQuality: 0,
    documentIds: null,
  }).ids;
}

describe('in-memory bm25 sweep', () => {
  it.each([
    'river stone',
    'lantern harbor copper meadow',
    'rivers mapping',
    '"copper engine" garden',
    'ember ember falcon',
    'glacier compass river stone -velvet',
    'thunder signal orchard engine velvet glacier',
  ])('equals the SQL lexical leg for all 64 weight sets: %s', (text) => {
    const compiled = compileLegQuery(text);
    if (compiled.kind !== 'query') throw new Error('query did not compile');
    const defaultIds = sqlLeg(compiled, DEFAULT_WEIGHT_SET);
    expect(defaultIds).toHaveLength(POOL);
    const sweep = sweepLexicalLeg({
      reader,
      postings: createPostingsCache(reader.openWordPostings()),
      compiled,
      candidatePool: POOL,
      defaultIds,
      defaultWeightSet: DEFAULT_WEIGHT_SET,
    });
    expect(sweep.path).toBe('memory');
    const differing = sweep.lists.flatMap((ids, w) => {
      const sql = sqlLeg(compiled, w);
      return ids.length === sql.length && ids.every((id, i) => id === sql[i]) ? [] : [w];
    });
    expect(differing).toEqual([]);
    // The weights matter on this corpus: not every set gives the same list.
    expect(new Set(sweep.lists.map((ids) => ids.join(','))).size).toBeGreaterThan(1);
  });

  it('falls back to SQL when words alone do not fill the pool, and gives the same lists', () => {
    const compiled = compileLegQuery('falcon');
    if (compiled.kind !== 'query') throw new Error('query did not compile');
    const pool = 500;
    const defaultIds = runLexicalLeg(reader, compiled, {
      weights: weightSetValues(DEFAULT_WEIGHT_SET),
      pool,
      minQuality: 0,
      documentIds: null,
    }).ids;
    expect(defaultIds.length).toBeLessThan(pool);
    const sweep = sweepLexicalLeg({
      reader,
      postings: createPostingsCache(reader.openWordPostings()),
      compiled,
      candidatePool: pool,
      defaultIds,
      defaultWeightSet: DEFAULT_WEIGHT_SET,
    });
    expect(sweep.path).toBe('sql');
    expect(sweep.lists[DEFAULT_WEIGHT_SET]).toEqual(defaultIds);
  });

  it('falls back to SQL when the postings disagree with SQLite at the default weights', () => {
    const compiled = compileLegQuery('river stone');
    if (compiled.kind !== 'query') throw new Error('query did not compile');
    const defaultIds = sqlLeg(compiled, DEFAULT_WEIGHT_SET);
    // A corrupted reference ranking stands in for any mismatch the verification must catch.
    const swapped = [defaultIds[1]!, defaultIds[0]!, ...defaultIds.slice(2)];
    const sweep = sweepLexicalLeg({
      reader,
      postings: createPostingsCache(reader.openWordPostings()),
      compiled,
      candidatePool: POOL,
      defaultIds: swapped,
      defaultWeightSet: DEFAULT_WEIGHT_SET,
    });
    expect(sweep.path).toBe('sql');
    expect(sweep.lists[5]).toEqual(sqlLeg(compiled, 5));
  });

  it('tokenizes with the table tokenizer (porter stems) and reads live row lengths', () => {
    const postings = reader.openWordPostings();
    expect(postings.columns).toEqual(['heading', 'context', 'content']);
    expect(postings.tokenize(['Rivers', 'mapping mapped'])).toEqual([['river'], ['map', 'map']]);
    const lengths = postings.readRowLengths();
    const chunkCount = db.prepare('SELECT count(*) FROM chunks').pluck().get() as number;
    expect(lengths.rowCount).toBe(chunkCount);
    expect(lengths.tokenTotal).toBeGreaterThan(chunkCount);
    const instances = postings.readInstances('river');
    expect(instances.rows.length).toBeGreaterThan(0);
    expect(new Set(instances.columns)).toEqual(new Set([0, 1, 2]));
  });
});
