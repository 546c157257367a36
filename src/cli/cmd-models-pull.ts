// `groove models pull <id>`: download a registered model into the cache, explicitly.
import { pullRegisteredModel } from '../app/index.js';
import { EXIT } from './cli-io.js';
import type { ModelsPullFlags } from './command-options.js';
import type { RunContext } from './command-spec.js';
import { loadConfig } from './common-options.js';

export async function run({ flags, args, io }: RunContext<ModelsPullFlags>): Promise<number> {
  const result = await pullRegisteredModel(loadConfig(flags, io), args[0]!);
  const where = result.downloaded
    ? 'downloaded to'
    : result.source === 'hub-cache'
      ? 'found in the Hugging Face cache at'
      : 'already in';
  io.stdout.write(
    `${result.id}: ${where} ${result.folder} (revision ${result.revision.slice(0, 12)}, verified)\n`,
  );
  return EXIT.ok;
}
