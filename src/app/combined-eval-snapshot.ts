// The read snapshot a cross-KB eval measures (`groove eval --kb a --kb b`): every KB's own read snapshot held
// open at once, searched as one corpus (searchKnowledgeBases, hits labelled with `kb`), and one corpus pass over
// all of them.
import { createHash } from 'node:crypto';
import type { KnowledgeBase } from './knowledge-base.js';
import type { ReadSnapshot } from './search/index.js';
import { searchKnowledgeBases } from './search-knowledge-bases.js';

interface NamedKb {
  kb: KnowledgeBase;
  name: string;
}

/** Hold each KB's read snapshot open, in order, then run `work` on them. */
function withSnapshots<T>(
  targets: readonly NamedKb[],
  work: (snapshots: ReadSnapshot[]) => Promise<T>,
  held: ReadSnapshot[] = [],
): Promise<T> {
  const next = targets[held.length];
  if (!next) return work(held);
  return next.kb.withReadSnapshot((snapshot) => withSnapshots(targets, work, [...held, snapshot]));
}

/**
 * One snapshot over several KBs: the search across them, the model (the distinct models joined by `+`), the
 * first KB's context mode and reads (the leg probe samples its index), the corpus counted over all of them (the
 * digest over each KB's name and digest, in order). Judgments are none: learning from feedback is refused
 * across KBs.
 */
export function withCombinedEvalSnapshot<T>(
  targets: readonly NamedKb[],
  work: (snapshot: ReadSnapshot) => Promise<T>,
): Promise<T> {
  return withSnapshots(targets, (snapshots) => {
    const first = snapshots[0]!;
    return work({
      model: [...new Set(snapshots.map((s) => s.model))].join('+'),
      contextMode: first.contextMode,
      search: (request, options) => searchKnowledgeBases(targets, request, options),
      readCorpus: (visit) => {
        const hash = createHash('sha256');
        let documents = 0;
        let chunks = 0;
        snapshots.forEach((snapshot, i) => {
          const corpus = snapshot.readCorpus(visit);
          documents += corpus.documents;
          chunks += corpus.chunks;
          hash.update(`${targets[i]!.name}\n${corpus.digest}\n`);
        });
        return { documents, chunks, digest: hash.digest('hex') };
      },
      judgments: () => [],
      reader: first.reader,
      embedder: first.embedder,
      vectors: () => first.vectors(),
      words: first.words,
    });
  });
}
