// An index whose vectors were made when long inputs were cut off at the model's token limit: the first run with a
// model that reads them in windows embeds those chunks again, and only those; later runs embed nothing.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openKnowledgeBase } from '../../src/app/knowledge-base.js';
import type { Embedder } from '../../src/types.js';
import { fillerText, TAIL_A, TAIL_B } from '../support/long-text.js';
import { createTempKb, type TempKb } from '../support/temp-kb.js';
import { ensureTinyModel, keptOpen, openTinyEmbedder } from '../support/test-models.js';

/** The same model as an older groove used it: the text cut short, and no way to tell long inputs apart. */
function cuttingOff(model: Embedder): Embedder {
  const { passagesOverLimit: _, ...older } = keptOpen(model);
  return { ...older, embedDocuments: (texts) => model.embedDocuments(texts.map((t) => t.slice(0, 2000))) };
}

let model: Embedder;
let kb: TempKb;
beforeAll(async () => {
  model = await openTinyEmbedder();
});
afterAll(() => model.close());
beforeEach(() => {
  const head = fillerText(550);
  kb = createTempKb({
    'alpha.md': `# Alpha\n\n${head} ${TAIL_A}\n`,
    'beta.md': `# Beta\n\n${head} ${TAIL_B}\n`,
    'gamma.md': '# Gamma\n\nA short note about the team.\n',
  });
});
afterEach(() => kb.cleanup());

async function indexWith(embedder: Embedder) {
  const facade = openKnowledgeBase(kb.config({ overrides: { modelDir: ensureTinyModel('embed') } }), {
    createEmbedder: async () => embedder,
  });
  try {
    return await facade.index({ force: false });
  } finally {
    await facade.close();
  }
}

const vectorOf = (relPath: string) => kb.documents().get(relPath)!.chunks[0]!.vector!.toString('hex');

describe('vectors cut off at the token limit by an older index', () => {
  it('are embedded again, in windows, on the first run; nothing else is, then or later', async () => {
    expect(await indexWith(cuttingOff(model))).toMatchObject({ indexed: 3, embeddedChunks: 3 });
    const gamma = vectorOf('gamma.md');
    const cutAlpha = vectorOf('alpha.md');

    const upgrade = await indexWith(keptOpen(model));
    expect(upgrade).toMatchObject({ updated: 3, embeddedChunks: 2, overLimitInputs: 2, truncatedInputs: 0 });
    expect(vectorOf('gamma.md')).toBe(gamma);
    expect(vectorOf('alpha.md')).not.toBe(cutAlpha);
    const [whole] = await model.embedDocuments([kb.documents().get('alpha.md')!.chunks[0]!.content]);
    expect(vectorOf('alpha.md')).toBe(Buffer.from(whole!.buffer).toString('hex'));

    const later = await indexWith(keptOpen(model));
    expect(later).toMatchObject({ unchanged: 3, embeddedChunks: 0 });
  });
});
