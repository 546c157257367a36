// The oracle for incremental snapshot refresh: a long-lived session that applies each commit's changed chunks to
// its word and vector snapshots must answer exactly as a session opened fresh on the same index (whose second
// search ranks from snapshots loaded whole) — hits, scores and leg health — after random edits, deletions and
// additions, including commits whose vectors are still queued.
import { describe, expect, it } from 'vitest';
import { openKnowledgeBase, type SearchResponse } from '../../src/app/index.js';
import { CountingEmbedder } from '../support/counting-embedder.js';
import { type TempKb, useTempKbs } from '../support/temp-kb.js';

const createKb = useTempKbs();
const WORDS = (
  'backup restore rotate keys volume disk verify schedule nightly replica failover snapshot lag quota ' +
  'invoice ledger audit deploy rollback canary metric alert pager 東京 売上 報告書 会議'
).split(' ');
const QUERIES = [
  'backup keys',
  'restore snapshot nightly',
  'deploy rollback canary',
  'audit ledger',
  '東京 売上',
];

function randomOf(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

function noteOf(random: () => number, title: string): string {
  const words = (n: number) =>
    Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
  const sections = Array.from(
    { length: 1 + Math.floor(random() * 3) },
    (_, i) => `## ${words(2)} ${i}\n\n${words(8 + Math.floor(random() * 30))}.\n`,
  );
  return `# ${title}\n\n${sections.join('\n')}`;
}

const open = (temp: TempKb) =>
  openKnowledgeBase(temp.config({ toml: '[embedding]\nbatch_size = 2\n' }), {
    createEmbedder: async () => new CountingEmbedder(),
  });

function summarize(response: SearchResponse): string {
  return JSON.stringify({
    legs: response.legs,
    results: response.results.map((r) => [r.path, r.heading, r.score]),
  });
}

describe('incremental snapshot refresh', () => {
  it('answers exactly as a fresh session after random edits, deletions and additions', async () => {
    const random = randomOf(20);
    const files: Record<string, string> = {};
    for (let n = 0; n < 30; n++) files[`notes/n${n}.md`] = noteOf(random, `Note ${n}`);
    const temp = createKb(files);
    const indexer = open(temp);
    const session = open(temp);
    let next = 30;
    try {
      await indexer.index();
      for (const query of QUERIES) await session.search({ query, limit: 8 }); // builds both snapshots
      await session.search({ query: QUERIES[0]!, limit: 8 });
      for (let round = 0; round < 8; round++) {
        const names = Object.keys(files);
        for (let op = 0; op < 1 + Math.floor(random() * 4); op++) {
          const pick = names[Math.floor(random() * names.length)]!;
          const roll = random();
          if (roll < 0.3 && files[pick] !== undefined) {
            temp.remove(pick);
            delete files[pick];
          } else if (roll < 0.7 && files[pick] !== undefined) {
            files[pick] = noteOf(random, `Edited ${round}`);
            temp.write(pick, files[pick]);
          } else {
            const added = `notes/new${next++}.md`;
            files[added] = noteOf(random, `New ${next}`);
            temp.write(added, files[added]);
          }
        }
        // Every other round commits the text with its vectors still queued, then a vectors-only commit.
        const pause = round % 2 === 1;
        await indexer.index(pause ? { shouldPauseEmbedding: () => true } : {});
        for (let step = 0; step < 2; step++) {
          const fresh = open(temp);
          try {
            for (const query of QUERIES) {
              await fresh.search({ query, limit: 8 }); // the second search ranks from fresh snapshots
              const expected = summarize(await fresh.search({ query, limit: 8 }));
              expect({
                round,
                step,
                query,
                got: summarize(await session.search({ query, limit: 8 })),
              }).toEqual({
                round,
                step,
                query,
                got: expected,
              });
            }
          } finally {
            await fresh.close();
          }
          if (!pause) break;
          await indexer.index();
        }
      }
    } finally {
      await session.close();
      await indexer.close();
    }
  });
});
