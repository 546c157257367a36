// `groove models pull <id>`: download a registered model into the cache, explicitly.
import { pullRegisteredModel } from '../app/index.js';
import { EXIT } from './cli-io.js';
import type { RunContext } from './command-spec.js';
import { type CommonFlags, loadConfig } from './common-options.js';

export async function run({ flags, args, io }: RunContext<CommonFlags>): Promise<number> {
  const result = await pullRegisteredModel(loadConfig(flags, io), args[0]!);
  io.stdout.write(`${result.id}: ${result.downloaded ? 'downloaded to' : 'already in'} ${result.folder}\n`);
  return EXIT.ok;
}
