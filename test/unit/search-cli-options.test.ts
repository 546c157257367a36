// `groove search`'s flags generated from the table: each parses into the request field it names, a flag not
// given stays out of the request (so the config applies), and a bad number names its flag.
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/cli-io.js';
import { buildCommand } from '../../src/cli/command-spec.js';
import { searchArgument, searchParamOptions, searchRequestFromFlags } from '../../src/cli/search-options.js';

const io: CliIo = { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, cwd: '.' };

/** The request `groove search <argv>` would send. */
async function requestOf(argv: string[]): Promise<unknown> {
  let request: unknown;
  const command = buildCommand(
    {
      name: 'search',
      description: 'search',
      argument: searchArgument(),
      options: searchParamOptions(),
      load: async () => ({
        run: async ({ flags, args }: { flags: Record<string, unknown>; args: string[] }) => {
          request = searchRequestFromFlags(args[0]!, flags);
          return 0;
        },
      }),
    },
    { io, version: 'test', setExit: () => {} },
  );
  await command.parseAsync(argv, { from: 'user' });
  return request;
}

describe('groove search flags', () => {
  it('leave every parameter that is not given out of the request', async () => {
    expect(await requestOf(['backup'])).toEqual({ query: 'backup' });
  });

  it('map each flag onto its request field: repeated globs, comma lists, numbers and switches', async () => {
    expect(
      await requestOf([
        'backup',
        '--limit',
        '3',
        '--category',
        'ops',
        '--topic',
        'db',
        '--path-glob',
        'ops/**',
        '--path-glob',
        '!ops/old/**',
        '--tag-any',
        'a, b,',
        '--tag-all',
        'c',
        '--date-from',
        '2026-01-01',
        '--date-to',
        '2026-02-01',
        '--min-quality',
        '0.2',
        '--include-low-quality',
        '--no-rerank',
        '--mmr',
        '--mmr-lambda',
        '0.4',
        '--mmr-same-doc-penalty',
        '0.1',
        '--no-parent-retriever',
        '--min-confidence',
        '0',
        '--explain',
      ]),
    ).toEqual({
      query: 'backup',
      limit: 3,
      category: 'ops',
      topic: 'db',
      pathGlobs: ['ops/**', '!ops/old/**'],
      tagsAny: ['a', 'b'],
      tagsAll: ['c'],
      dateFrom: '2026-01-01',
      dateTo: '2026-02-01',
      minQuality: 0.2,
      includeLowQuality: true,
      rerank: false,
      mmr: true,
      mmrLambda: 0.4,
      mmrSameDocPenalty: 0.1,
      parentRetriever: false,
      minConfidence: 0,
      explain: true,
    });
    expect(await requestOf(['x', '--rerank', '--no-mmr', '--parent-retriever'])).toEqual({
      query: 'x',
      rerank: true,
      mmr: false,
      parentRetriever: true,
    });
  });

  it('refuse a number flag that is not a finite number, naming the flag', async () => {
    await expect(requestOf(['x', '--limit', 'many'])).rejects.toThrow(
      '--limit "many" is not a finite number',
    );
    await expect(requestOf(['x', '--mmr-lambda', ' '])).rejects.toThrow(
      '--mmr-lambda " " is not a finite number',
    );
  });
});
