// The titles and descriptions an LLM caller reads for groove's MCP tools, shared by the one-KB and several-KB
// servers (server.ts, server-many.ts).

export const SEARCH_TOOL = {
  title: 'Search the knowledge base',
  description:
    'Hybrid search (word-level BM25 + vector similarity, fused by RRF) over the indexed notes. Returns ' +
    '{results:[{score,path,title,heading,line_start,line_end,topic,date,tags,content,match_spans}], ' +
    'confidence, low_confidence, filter_applied, legs}. `confidence` (0–1): the IDF-weighted share of the ' +
    "query's words that the top hit holds (a word the knowledge base never uses counts as missing; 0 with no " +
    'results); `low_confidence` = confidence below min_confidence (default 0.3, or the value `groove tune` fitted ' +
    'on this KB): the KB likely does not answer the question. It measures word overlap, not meaning: a ' +
    'paraphrase can score low. `content` is the matching chunk, at lines line_start–line_end ' +
    'of its file (null when unknown); `match_spans` are UTF-8 byte offsets of the ' +
    'words in it that match the query terms. `legs` gives each leg {status: ok|empty|partial|failed|disabled, candidates, error?, reason?} ' +
    '("disabled" vector = no embedding model, or, with a `reason`, left out by `legs`; "partial"/"failed" = that leg broke, results are incomplete; ' +
    'a vector leg "partial" with coverage {embedded, chunks} = the index is still embedding, keyword results are complete). ' +
    '`legs` (both|lexical|vector) runs both retrieval legs or one alone (lexical: no query embedding; ' +
    'vector: no keyword search); on a lexical-only index legs: vector returns no results. ' +
    '`timings: true` adds `timings_ms`: the milliseconds each stage that ran took (lexical, vector, fusion, boost, ' +
    'graph, rerank, fold, mmr, parent) and the total; switch a costly stage off per call (rerank, mmr, parent_retriever, boost, graph, fold, legs). ' +
    'Filters narrow the documents before ranking, so a filtered search still fills `limit` when it can. ' +
    'No results but `hidden_by_quality: {count, min_quality, hint}` = the quality filter hid that many keyword ' +
    'matches; search again with include_low_quality: true to see them. ' +
    '`boost` raises documents agents judged helped (record_feedback); `graph` pulls in documents linked ' +
    'to a top hit or judged helped in the same task, each with `expanded_from: {kind: link|co_helpful, ' +
    'path, heading?}` naming that hit. `fold` (section|document) keeps one hit per section or document, ' +
    "refilling the list; a kept hit's `folded` counts the lower hits it stands for. " +
    '`max_tokens` answers with passages instead of whole chunks: extracts around the matches, cut at sentence ' +
    'or line boundaries, best first (by hit rank, then within a hit), never the same text twice, taken until ' +
    'the budget is spent; each result is one passage (its `content`, its own line_start–line_end, `tokens`), ' +
    'and the response adds max_tokens, tokens_used (passage text only) and token_counter (estimate or a tokenizer).',
};

export const GET_DOCUMENT_TOOL = {
  title: 'Read one document',
  description:
    'The full text of one indexed document, by the exact `path` a search result or graph node gave. ' +
    'Returns {path,title,date,topic,tags,content,extracted,truncated}; for a PDF or Office file content is ' +
    'the extracted text (extracted: true, a "#" line per page, sheet or slide). Only indexed files are ' +
    'served: no absolute paths, "..", symbolic or hard links, and nothing over 1 MiB of text.',
};

export const LIST_TOPICS_TOOL = {
  title: 'List topics',
  description:
    'What the knowledge base covers: groups of documents by category (first folder) and topic, each with ' +
    'file_count, last_updated (latest frontmatter date), up to 20 titles and the folders below it. Use ' +
    'the category or topic names as search filters.',
};

export const REBUILD_INDEX_TOOL = {
  title: 'Rebuild the index',
  description:
    'Bring the index up to date with the files on disk and return counts (documents, chunks, updated, ' +
    'renamed, deleted, skipped, duration_ms). Rarely needed: the server already follows file changes ' +
    'unless started with --no-watch. One rebuild at a time; a second call is refused while one runs. ' +
    'Searches keep answering during a rebuild.',
};

export const CONNECTION_GRAPH_TOOL = {
  title: 'Related-notes graph',
  description:
    'Notes related to one document, found by following vector similarity breadth-first: the start ' +
    'document’s chunks are seeds; each node’s nearest neighbours (similarity ≥ min_similarity, at most ' +
    'fan_out) become its children, up to `depth` hops and `max_nodes` nodes. `edges` lists the links ' +
    'written in the notes (Markdown links and [[wikilinks]]) from and to the start document and between ' +
    'the graph’s documents, by path, each with its `kind`. Returns {start_path, nodes:[{node_id,parent_id,' +
    'depth,score,path,heading,title,snippet}], edges:[{source,target,kind}], truncated, truncation:[{reason,' +
    'limit,remedy}], stats}. On an index without vectors only the seeds and the links are returned.',
};
