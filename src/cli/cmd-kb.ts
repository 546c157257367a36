// `groove kb add|list|show|rename|remove`: the registry of named KBs (src/app/kbs).
import { EXIT } from './cli-io.js';
import type { KbAddFlags, KbListFlags, KbRemoveFlags, KbShowFlags } from './command-options.js';
import type { RunContext } from './command-spec.js';

export async function runAdd({ flags, args, io }: RunContext<KbAddFlags>): Promise<number> {
  const { addKb, displayPath, registryPath } = await import('../app/index.js');
  const parsers = flags.parsers?.split(',').map((id) => id.trim());
  const entry = await addKb(
    { name: args[0]!, path: args[1]!, config: flags.config, model: flags.model, parsers },
    io,
  );
  io.stdout.write(`added KB "${entry.name}": ${displayPath(entry.root)}\n`);
  io.stderr.write(`registry: ${displayPath(registryPath(io))}\n`);
  return EXIT.ok;
}

export async function runList({ flags, io }: RunContext<KbListFlags>): Promise<number> {
  const { kbOverviewToJson, listKbs } = await import('../app/index.js');
  const listing = await listKbs(io);
  if (flags.format === 'json') {
    const kbs = listing.kbs.map(kbOverviewToJson);
    io.stdout.write(`${JSON.stringify({ registry: listing.registry, kbs })}\n`);
    return EXIT.ok;
  }
  const { renderKbList } = await import('./render-kbs.js');
  io.stdout.write(renderKbList(listing));
  return EXIT.ok;
}

export async function runShow({ flags, args, io }: RunContext<KbShowFlags>): Promise<number> {
  const { kbOverviewToJson, showKb } = await import('../app/index.js');
  const overview = await showKb(args[0]!, io);
  if (flags.format === 'json') {
    io.stdout.write(`${JSON.stringify(kbOverviewToJson(overview))}\n`);
    return EXIT.ok;
  }
  const { renderKbShow } = await import('./render-kbs.js');
  io.stdout.write(renderKbShow(overview));
  return EXIT.ok;
}

export async function runRename({ args, io }: RunContext<object>): Promise<number> {
  const { renameKb } = await import('../app/index.js');
  const entry = await renameKb(args[0]!, args[1]!, io);
  io.stdout.write(`renamed KB "${args[0]}" to "${entry.name}"\n`);
  return EXIT.ok;
}

export async function runRemove({ flags, args, io }: RunContext<KbRemoveFlags>): Promise<number> {
  const { displayPath, removeKb } = await import('../app/index.js');
  const removal = await removeKb(
    args[0]!,
    { deleteIndex: flags.deleteIndex === true, indexReleased: (dbPath) => serverReleased(dbPath, io.env) },
    io,
  );
  io.stdout.write(
    `removed KB "${removal.entry.name}" (its folder ${displayPath(removal.entry.root)} is untouched)\n`,
  );
  for (const file of removal.deletedFiles) io.stdout.write(`deleted ${displayPath(file)}\n`);
  if (flags.deleteIndex !== true) io.stdout.write('its index is kept; pass --delete-index to delete it\n');
  return EXIT.ok;
}

/** How long `kb remove --delete-index` waits for a running server to see the registry change and close the index. */
const RELEASE_WAIT_MS = 10_000;
const RELEASE_POLL_MS = 100;

/** True once no `groove serve` listens on the index's local socket (a server closes it with the index). */
async function serverReleased(dbPath: string, env: Record<string, string | undefined>): Promise<boolean> {
  const { localSocketPlace } = await import('../local-socket/local-socket-path.js');
  const { isLocalServerListening } = await import('../local-socket/local-socket-client.js');
  const place = localSocketPlace(dbPath, env);
  if (place === null) return true;
  const deadline = Date.now() + RELEASE_WAIT_MS;
  while (await isLocalServerListening(place)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, RELEASE_POLL_MS));
  }
  return true;
}
