// `groove models list|pull`: see which models are registered and downloaded, and fetch one explicitly.

import { Command } from 'commander';
import { displayPath, listRegisteredModels, pullRegisteredModel } from '../app/index.js';
import { type CliIo, EXIT } from './cli-io.js';
import { addFormatOption, type CommonFlags, loadConfig } from './common-options.js';

export function modelsCommand(io: CliIo, setExit: (code: number) => void): Command {
  const models = new Command('models').description(
    'list registered embedding models and rerankers, or download one',
  );
  const list = new Command('list')
    .description('id, kind, dimension, languages, download size and whether it is in the cache')
    .option('--config <path>', 'groove.toml to use');
  addFormatOption(list);
  list.action((flags: CommonFlags) => {
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
    } else {
      io.stdout.write(`Model cache: ${displayPath(cacheDir)}\n`);
      for (const m of entries) {
        const dims = m.dimension === null ? '-' : String(m.dimension);
        const state = m.downloaded ? 'downloaded' : 'not downloaded';
        io.stdout.write(
          `${m.id.padEnd(24)} ${m.kind.padEnd(9)} dims ${dims.padEnd(5)} ${m.languages.padEnd(16)} ${String(m.downloadMB).padStart(5)} MB  ${state}\n`,
        );
      }
    }
    setExit(EXIT.ok);
  });
  const pull = new Command('pull')
    .description(
      'download a registered model into the cache (GROOVE_MODEL_DIR / model_dir; HF_ENDPOINT mirrors)',
    )
    .argument('<id>', 'model id from `groove models list`')
    .option('--config <path>', 'groove.toml to use');
  pull.action(async (id: string, flags: CommonFlags) => {
    const result = await pullRegisteredModel(loadConfig(flags, io), id);
    io.stdout.write(`${result.id}: ${result.downloaded ? 'downloaded to' : 'already in'} ${result.folder}\n`);
    setExit(EXIT.ok);
  });
  return models.addCommand(list).addCommand(pull);
}
