// `groove service`: install, remove and inspect a user service that runs `groove serve --transport http` for one
// knowledge base — a systemd user unit on Linux, a launchd agent on macOS. The service file is written
// atomically; the service manager is asked to load it only when `start` is set.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { xdgBaseFolders } from '../../config/groove-folders.js';
import { GrooveError } from '../../errors.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import { checkIndexLocation } from '../indexing/index.js';
import {
  isValidServiceName,
  launchdLabel,
  renderLaunchdPlist,
  renderSystemdUnit,
  type ServiceSpec,
  systemdUnitName,
  unitPathProblem,
} from './service-units.js';

export type ServicePlatform = 'linux' | 'darwin';

export interface ServiceRequest {
  name: string;
  kbPath: string;
  dbPath: string | null;
  configPath: string | null;
  bind: string;
  port: number;
  /** Pass --allow-remote to serve (the caller checked that a non-loopback bind was asked for on purpose). */
  allowRemote: boolean;
  platform: NodeJS.Platform;
  homeDir: string;
  env: Record<string, string | undefined>;
}

export interface ServicePlan {
  platform: ServicePlatform;
  name: string;
  /** Where the service file goes. */
  filePath: string;
  content: string;
  /** The service manager's name for it (unit name or launchd label). */
  managerId: string;
}

/** The folder holding bin/groove.js, found from this module (the same in a checkout and an installed package). */
function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let step = 0; step < 8; step++) {
    if (fs.existsSync(path.join(dir, 'bin', 'groove.js')) && fs.existsSync(path.join(dir, 'package.json')))
      return dir;
    dir = path.dirname(dir);
  }
  throw new GrooveError('INTERNAL', 'cannot find bin/groove.js beside the installed groove code');
}

function platformOf(platform: NodeJS.Platform): ServicePlatform {
  if (platform === 'linux' || platform === 'darwin') return platform;
  throw new GrooveError(
    'INVALID_ARGUMENT',
    `groove service supports Linux (systemd) and macOS (launchd), not "${platform}"`,
    {
      hint: 'run `groove serve --transport http` from your own service manager instead',
    },
  );
}

/** The service file and its text for a request; writes nothing. */
export function planService(request: ServiceRequest): ServicePlan {
  if (!isValidServiceName(request.name)) {
    throw new GrooveError('INVALID_ARGUMENT', `service name "${request.name}" is not allowed`, {
      hint: 'use letters, digits, ".", "_" and "-" (at most 64), starting with a letter or digit',
    });
  }
  const platform = platformOf(request.platform);
  const command = [
    process.execPath,
    path.join(packageRoot(), 'bin', 'groove.js'),
    'serve',
    '--transport',
    'http',
    '--kb-path',
    request.kbPath,
    ...(request.dbPath ? ['--db-path', request.dbPath] : []),
    ...(request.configPath ? ['--config', request.configPath] : []),
    '--bind',
    request.bind,
    '--port',
    String(request.port),
    ...(request.allowRemote ? ['--allow-remote'] : []),
  ];
  const spec: ServiceSpec = { name: request.name, command, workingDirectory: path.dirname(request.kbPath) };
  refuseUnwritableWords(platform, spec);
  if (platform === 'linux') {
    // XDG: a relative XDG_CONFIG_HOME is ignored, so a unit never lands below the current folder.
    const { configHome } = xdgBaseFolders(request.env, request.homeDir);
    const unit = systemdUnitName(request.name);
    return {
      platform,
      name: request.name,
      filePath: path.join(configHome, 'systemd', 'user', unit),
      content: renderSystemdUnit(spec),
      managerId: unit,
    };
  }
  const label = launchdLabel(request.name);
  const log = path.join(request.homeDir, 'Library', 'Logs', `${label}.log`);
  return {
    platform,
    name: request.name,
    filePath: path.join(request.homeDir, 'Library', 'LaunchAgents', `${label}.plist`),
    content: renderLaunchdPlist(spec, log),
    managerId: label,
  };
}

/**
 * What the service file cannot say exactly: systemd unescapes ExecStart= but not WorkingDirectory=, so a control
 * character in that folder is refused; a plist is XML, which cannot hold control characters at all (a CR would be
 * read back as a line feed), so launchd refuses them in every argument.
 */
function refuseUnwritableWords(platform: ServicePlatform, spec: ServiceSpec): void {
  const refuse = (what: string, value: string, problem: string) =>
    new GrooveError('INVALID_ARGUMENT', `cannot write a service for ${what} "${value}": ${problem}`, {
      hint: 'rename or move the folder so that its path has no control characters',
    });
  if (platform === 'linux') {
    const problem = unitPathProblem(spec.workingDirectory);
    if (problem) throw refuse('the working folder', spec.workingDirectory, problem);
    return;
  }
  const word = spec.command.find((w) => /[\p{Cc}]/u.test(w.replace(/\t/g, '')));
  if (word !== undefined) throw refuse('the argument', word, 'it holds a control character');
}

/**
 * The checks every command runs on the paths the service will use, before anything is written: the index path
 * as `groove index` and `groove serve` check it (an existing, writable folder outside the knowledge base), and
 * a --config file that exists.
 */
export function checkServicePaths(request: Pick<ServiceRequest, 'kbPath' | 'dbPath' | 'configPath'>): void {
  if (request.dbPath !== null) checkIndexLocation(request.kbPath, request.dbPath);
  if (request.configPath !== null && !fs.statSync(request.configPath, { throwIfNoEntry: false })?.isFile()) {
    throw new GrooveError('CONFIG_NOT_FOUND', `config file "${request.configPath}" does not exist`, {
      hint: 'pass --config the groove.toml the service should read, or leave it out',
    });
  }
}

/** Run the service manager; a failure is SERVICE_FAILED with the manager's own first line. */
function manage(args: readonly string[], plan: ServicePlan, ignoreFailure = false): string {
  const [program, ...rest] =
    plan.platform === 'linux' ? ['systemctl', '--user', ...args] : ['launchctl', ...args];
  const result = spawnSync(program!, rest, { encoding: 'utf8', timeout: 30_000 });
  const said = `${result.stderr ?? ''}${result.stdout ?? ''}`.trim().split('\n')[0] ?? '';
  if (!ignoreFailure && (result.error || result.status !== 0)) {
    throw new GrooveError(
      'SERVICE_FAILED',
      `${program} ${rest.join(' ')} failed: ${result.error?.message ?? said}`,
      {
        hint:
          plan.platform === 'linux'
            ? 'the unit file is written; check that a systemd user session runs (`systemctl --user status`), then `systemctl --user enable --now ' +
              plan.managerId +
              '`'
            : `the agent file is written; load it with \`launchctl load -w ${plan.filePath}\``,
      },
    );
  }
  return (result.stdout ?? '').trim();
}

export function installService(plan: ServicePlan, options: { force: boolean; start: boolean }): void {
  if (fs.existsSync(plan.filePath) && !options.force) {
    throw new GrooveError(
      'INVALID_ARGUMENT',
      `service "${plan.name}" is already installed at "${plan.filePath}"`,
      {
        hint: 'pass --force to replace it, or pick another --service-name',
      },
    );
  }
  fs.mkdirSync(path.dirname(plan.filePath), { recursive: true });
  writeFileAtomic(plan.filePath, plan.content);
  if (!options.start) return;
  if (plan.platform === 'linux') {
    manage(['daemon-reload'], plan);
    manage(['enable', '--now', plan.managerId], plan);
  } else manage(['load', '-w', plan.filePath], plan);
}

/** Stop and remove the service; true when there was one. */
export function uninstallService(plan: ServicePlan, options: { stop: boolean }): boolean {
  if (!fs.existsSync(plan.filePath)) return false;
  if (options.stop) {
    if (plan.platform === 'linux') manage(['disable', '--now', plan.managerId], plan, true);
    else manage(['unload', '-w', plan.filePath], plan, true);
  }
  fs.rmSync(plan.filePath);
  if (options.stop && plan.platform === 'linux') manage(['daemon-reload'], plan, true);
  return true;
}

export interface ServiceState {
  installed: boolean;
  filePath: string;
  /** What the service manager says (`active`, `inactive`…), or null when it was not asked. */
  state: string | null;
}

export function serviceStatus(plan: ServicePlan, options: { ask: boolean }): ServiceState {
  const installed = fs.existsSync(plan.filePath);
  if (!installed || !options.ask) return { installed, filePath: plan.filePath, state: null };
  const state =
    plan.platform === 'linux'
      ? manage(['is-active', plan.managerId], plan, true) || 'unknown'
      : manage(['list', plan.managerId], plan, true)
        ? 'loaded'
        : 'not loaded';
  return { installed, filePath: plan.filePath, state };
}
