// `groove service install|uninstall|status`: a user service that keeps `groove serve --transport http` running
// for one knowledge base (systemd on Linux, launchd on macOS).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  checkServicePaths,
  installService,
  planService,
  type ServicePlan,
  serviceStatus,
  uninstallService,
} from '../app/index.js';
import { expandPath } from '../config/resolve-config.js';
import { GrooveError } from '../errors.js';
import { isLoopbackBind } from '../mcp/http-guard.js';
import { type CliIo, EXIT } from './cli-io.js';
import type { ServiceInstallFlags, ServiceStatusFlags, ServiceUninstallFlags } from './command-options.js';
import type { RunContext } from './command-spec.js';

/** What the plan reads: the service's name, and for install the KB and the address it serves on. */
type PlanFlags = Partial<ServiceInstallFlags> & Pick<ServiceInstallFlags, 'serviceName'>;

/** The plan for the named service; install also needs the KB and the address it serves on. */
function planFor(flags: PlanFlags, io: CliIo, forInstall: boolean): ServicePlan {
  const kbPath = flags.kbPath === undefined ? null : expandPath(flags.kbPath, io.cwd);
  if (forInstall) {
    if (!kbPath || !fs.statSync(kbPath, { throwIfNoEntry: false })?.isDirectory()) {
      throw new GrooveError('KB_NOT_FOUND', `knowledge base "${kbPath ?? ''}" is not a directory`, {
        hint: 'pass --kb-path DIR: the folder of notes the service serves',
      });
    }
    if (flags.bind !== undefined && !isLoopbackBind(flags.bind) && !flags.allowRemote) {
      throw new GrooveError(
        'INVALID_ARGUMENT',
        `refusing to install a service listening on non-loopback "${flags.bind}"`,
        {
          hint: 'anyone who can reach it could read the knowledge base; pass --allow-remote if you mean it, and set a token and allowed_hosts in its groove.toml',
        },
      );
    }
  }
  const paths = {
    kbPath: kbPath ?? path.join(io.cwd, 'kb'),
    dbPath: flags.dbPath === undefined ? null : expandPath(flags.dbPath, io.cwd),
    configPath: flags.config === undefined ? null : expandPath(flags.config, io.cwd),
  };
  if (forInstall) checkServicePaths(paths);
  return planService({
    name: flags.serviceName,
    ...paths,
    bind: flags.bind ?? '127.0.0.1',
    port: flags.port ?? 3100,
    allowRemote: flags.bind !== undefined && !isLoopbackBind(flags.bind),
    platform: process.platform,
    homeDir: io.env.HOME || os.homedir(),
    env: io.env,
  });
}

export async function runInstall({ flags, io }: RunContext<ServiceInstallFlags>): Promise<number> {
  const plan = planFor(flags, io, true);
  if (flags.dryRun) {
    io.stdout.write(`# ${plan.filePath}\n${plan.content}`);
    return EXIT.ok;
  }
  installService(plan, { force: Boolean(flags.force), start: flags.start });
  io.stdout.write(
    `installed ${plan.managerId} at ${plan.filePath}${flags.start ? ' and started it' : ' (not started: --no-start)'}\n`,
  );
  return EXIT.ok;
}

export async function runUninstall({ flags, io }: RunContext<ServiceUninstallFlags>): Promise<number> {
  const plan = planFor(flags, io, false);
  const removed = uninstallService(plan, { stop: flags.stop });
  io.stdout.write(
    removed ? `removed ${plan.managerId} (${plan.filePath})\n` : `no service "${plan.name}" is installed\n`,
  );
  return removed ? EXIT.ok : EXIT.failure;
}

export async function runStatus({ flags, io }: RunContext<ServiceStatusFlags>): Promise<number> {
  const plan = planFor(flags, io, false);
  const state = serviceStatus(plan, { ask: flags.ask });
  if (flags.format === 'json') {
    io.stdout.write(
      `${JSON.stringify({ name: plan.name, installed: state.installed, file: state.filePath, state: state.state })}\n`,
    );
  } else {
    io.stdout.write(
      state.installed
        ? `${plan.managerId}: installed at ${state.filePath}${state.state ? `, ${state.state}` : ''}\n`
        : `${plan.managerId}: not installed\n`,
    );
  }
  return state.installed ? EXIT.ok : EXIT.failure;
}
