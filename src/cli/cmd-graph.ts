// `groove graph <start>`: the connection graph of get_connection_graph from the command line — the same request
// and the same JSON, plus text, DOT and Mermaid to look at.
import { connectionGraphToJson, type GraphRequest } from '../app/index.js';
import { GrooveError } from '../errors.js';
import { EXIT } from './cli-io.js';
import type { GraphFlags } from './command-options.js';
import type { RunContext } from './command-spec.js';
import { renderGraphDot, renderGraphMermaid, renderGraphText } from './render-graph.js';
import { withKnowledgeBase } from './with-knowledge-base.js';

function requestOf(start: string, flags: GraphFlags): GraphRequest {
  return {
    start,
    depth: flags.depth,
    fanOut: flags.fanOut,
    minSimilarity: flags.minSimilarity,
    maxNodes: flags.maxNodes,
    dedupByPath: flags.dedupByPath,
    excludePaths: flags.excludePath,
    seedStrategy: flags.seedStrategy,
    maxSeedChunks: flags.maxSeedChunks,
    category: flags.category,
    topic: flags.topic,
  };
}

export async function run({ flags, args, io }: RunContext<GraphFlags>): Promise<number> {
  return withKnowledgeBase(flags, io, 'read', async (kb) => {
    const result = await kb.connectionGraph(requestOf(args[0]!, flags));
    if (!result.ok) {
      throw new GrooveError(
        result.reason === 'not-found' ? 'DOCUMENT_NOT_FOUND' : 'VECTORS_MISSING',
        result.message,
      );
    }
    const { graph } = result;
    if (flags.format === 'json') io.stdout.write(`${JSON.stringify(connectionGraphToJson(graph))}\n`);
    else if (flags.format === 'dot') io.stdout.write(renderGraphDot(graph));
    else if (flags.format === 'mermaid') io.stdout.write(renderGraphMermaid(graph));
    else io.stdout.write(renderGraphText(graph));
    return EXIT.ok;
  });
}
