// The confidence signal on a small real lexical-only index: an on-topic question scores high and is not
// low_confidence; a question in words the notes never use scores low and is; the wire form carries both.
import { describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import { searchResponseToJson } from '../../src/app/search/search-types.js';
import { type TempKb, useTempKbs } from '../support/temp-kb.js';

const createKb = useTempKbs();

const NOTES: Record<string, string> = {
  'backup.md':
    '# Nightly backup\n\nThe database backup runs nightly with pg_dump; restore it with pg_restore into a fresh cluster.\n',
  'gearbox.md':
    '# Gearbox maintenance\n\nChange the gearbox oil every 500 hours and inspect the bearings for wear.\n',
  'onboarding.md': '# Onboarding\n\nNew staff get a laptop, a badge and a mentor in their first week.\n',
  'release.md': '# Release process\n\nTag the release, build the artefacts and publish the changelog.\n',
};

async function search(temp: TempKb, request: Record<string, unknown>) {
  const facade = openKnowledgeBase(temp.config({ overrides: { model: 'none' } }));
  try {
    await facade.index();
    return await facade.search(request);
  } finally {
    await facade.close();
  }
}

describe('answer confidence on a real index', () => {
  it('separates an on-topic question from an off-topic one', async () => {
    const temp = createKb(NOTES);
    const onTopic = await search(temp, { query: 'how do I restore the nightly pg_dump backup' });
    const offTopic = await search(temp, { query: 'supersonic wing flutter at transonic mach numbers' });
    expect(onTopic.results[0]!.path).toBe('backup.md');
    expect(onTopic.confidence).toBeGreaterThan(0.8);
    expect(onTopic.lowConfidence).toBe(false);
    expect(offTopic.confidence).toBeLessThan(0.3);
    expect(offTopic.lowConfidence).toBe(true);
  });

  it('sets low_confidence against the request threshold and puts confidence on the wire', async () => {
    const temp = createKb(NOTES);
    // "gearbox" is held by the top hit, "wing" by no note: the confidence sits strictly between 0 and 1.
    const mixed = await search(temp, { query: 'gearbox wing', minConfidence: 0 });
    expect(mixed.confidence).toBeGreaterThan(0);
    expect(mixed.confidence).toBeLessThan(1);
    expect(mixed.lowConfidence).toBe(false);
    const strict = await search(temp, { query: 'gearbox wing', minConfidence: 1 });
    expect(strict.lowConfidence).toBe(true);
    const wire = searchResponseToJson(strict);
    expect(wire.confidence).toBeCloseTo(strict.confidence, 3);
    expect(wire.low_confidence).toBe(true);
  });

  it('is the same in a long-lived session (word snapshot held) as in a one-shot search', async () => {
    const temp = createKb(NOTES);
    const queries = [
      'how do I restore the nightly pg_dump backup',
      'gearbox wing',
      'mentor badge laptop week',
    ];
    const oneShot: number[] = [];
    for (const query of queries) oneShot.push((await search(temp, { query })).confidence);
    const facade = openKnowledgeBase(temp.config({ overrides: { model: 'none' } }));
    try {
      // The snapshot is built from the second search of a version on; the later ones read it.
      for (let round = 0; round < 3; round++) {
        const session: number[] = [];
        for (const query of queries) session.push((await facade.search({ query })).confidence);
        expect(session).toEqual(oneShot);
      }
    } finally {
      await facade.close();
    }
  });
});
