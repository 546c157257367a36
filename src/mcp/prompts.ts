// MCP prompts: fixed task recipes for an agent that use groove's tools. Their text is part of the code, never
// read from the config, so a knowledge base cannot inject instructions through them. All share the rules for
// citing and for saying when the knowledge base is silent.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

export const CITATION_RULES =
  'Rules: cite every claim with the `path` of the result it comes from (and its heading when there is one). ' +
  "When a search returns `low_confidence: true` (its top hit holds few of the question's distinctive words), " +
  'say the knowledge base may not answer it; when a leg in `legs` is failed or partial, say that the answer ' +
  'may be incomplete. When the knowledge base has nothing on a point, say so plainly instead of answering ' +
  'from general knowledge.';

const DAY_MS = 86_400_000;
const WHATS_NEW_DAYS = 30;

function promptOf(text: string, rules: string): GetPromptResult {
  return { messages: [{ role: 'user', content: { type: 'text', text: `${text}\n\n${rules}` } }] };
}

/** What a server of several KBs adds to the citation rules: where each source comes from. */
function severalKbsRule(kbNames: readonly string[]): string {
  return (
    ` Several knowledge bases are served (${kbNames.join(', ')}): search covers all of them unless you pass ` +
    '`kb`; call list_kbs to see what each holds, and cite each source by its `kb` and `path`.'
  );
}

/** The calendar date `days` before `now`, as YYYY-MM-DD (UTC). */
export function daysBefore(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY_MS).toISOString().slice(0, 10);
}

const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'since must be a date YYYY-MM-DD')
  .refine(
    (text) => new Date(`${text}T00:00:00Z`).toISOString().startsWith(text),
    'since must be a date that exists',
  );

/** The prompts; `kbNames` (two or more) when the server serves several KBs, which the prompts then name. */
export function registerPrompts(
  server: McpServer,
  now: () => Date = () => new Date(),
  kbNames: readonly string[] = [],
): void {
  const rules = kbNames.length > 1 ? `${CITATION_RULES}${severalKbsRule(kbNames)}` : CITATION_RULES;
  const userPrompt = (text: string) => promptOf(text, rules);
  server.registerPrompt(
    'summarize_topic',
    {
      title: 'Summarize a topic',
      description: 'Summarize what the knowledge base says about one topic, with citations.',
      argsSchema: { topic: z.string().min(1).max(200).describe('The topic or question area to summarize.') },
    },
    ({ topic }) =>
      userPrompt(
        `Summarize what the knowledge base says about "${topic}". Call list_topics to see whether it is a ` +
          'category or topic name (then filter search by it), run two or three searches with different ' +
          'wordings, read the most relevant documents with get_document, and write a short structured summary.',
      ),
  );
  server.registerPrompt(
    'deep_dive',
    {
      title: 'Deep dive on a question',
      description: 'Answer one question thoroughly from the knowledge base, following related notes.',
      argsSchema: { question: z.string().min(1).max(1000).describe('The question to answer.') },
    },
    ({ question }) =>
      userPrompt(
        `Answer this question from the knowledge base: "${question}". Search for it, read the best results ` +
          'in full with get_document, then call get_connection_graph on the most relevant document to find ' +
          'related notes and read those that matter. Give the answer first, then the evidence.',
      ),
  );
  server.registerPrompt(
    'whats_new',
    {
      title: "What's new",
      description: `What changed in the knowledge base since a date (default: ${WHATS_NEW_DAYS} days ago).`,
      argsSchema: { since: calendarDate.optional().describe('A date YYYY-MM-DD; default 30 days ago.') },
    },
    ({ since }) => {
      const from = since ?? daysBefore(now(), WHATS_NEW_DAYS);
      return userPrompt(
        `List what is new in the knowledge base since ${from}. Call list_topics (its last_updated shows where ` +
          `recent notes are), then search with date_from "${from}" for each active area. Note: date_from ` +
          'compares the frontmatter `date` of each document, so undated documents never appear — say so if ' +
          'the knowledge base has many of them. Group the changes by topic.',
      );
    },
  );
  server.registerPrompt(
    'find_gaps',
    {
      title: 'Find gaps',
      description: 'Find what the knowledge base does not cover well, overall or for one topic.',
      argsSchema: {
        topic: z.string().min(1).max(200).optional().describe('Limit the review to this topic.'),
      },
    },
    ({ topic }) =>
      userPrompt(
        `${topic ? `For the topic "${topic}", find` : 'Find'} the gaps in the knowledge base: call ` +
          'list_topics, search for the questions a newcomer would ask, and report questions that return ' +
          'low_confidence or no good result, thin topics (few files, old last_updated) and contradictions ' +
          'between documents. End with a short list of notes worth writing.',
      ),
  );
}
