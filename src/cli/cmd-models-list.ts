// `groove models list`: the registered models and rerankers, and which are in the cache.
import { displayPath, listRegisteredModels } from '../app/index.js';
import { EXIT } from './cli-io.js';
import type { ModelsListFlags } from './command-options.js';
import type { RunContext } from './command-spec.js';
import { loadConfig } from './common-options.js';

export async function run({ flags, io }: RunContext<ModelsListFlags>): Promise<number> {
  const { cacheDir, models: entries } = listRegisteredModels(loadConfig(flags, io));
  if (flags.format === 'json') {
    const rows = entries.map((m) => ({
      id: m.id,
      kind: m.kind,
      hub_repo: m.hubRepo,
      dimension: m.dimension,
      languages: m.languages,
      download_mb: m.downloadMB,
      downloaded: m.downloaded,
      folder: m.folder,
    }));
    io.stdout.write(`${JSON.stringify({ cache_dir: cacheDir, models: rows })}\n`);
    return EXIT.ok;
  }
  io.stdout.write(`Model cache: ${displayPath(cacheDir)}\n`);
  for (const m of entries) {
    const dims = m.dimension === null ? '-' : String(m.dimension);
    const state = m.downloaded ? 'downloaded' : 'not downloaded';
    io.stdout.write(
      `${m.id.padEnd(24)} ${m.kind.padEnd(9)} dims ${dims.padEnd(5)} ${m.languages.padEnd(16)} ${String(m.downloadMB).padStart(5)} MB  ${state}\n`,
    );
  }
  return EXIT.ok;
}
