// The user-service files that keep `groove serve --transport http` running: a systemd user unit (Linux) and a
// launchd agent (macOS). Pure text; every value is escaped for its format, so a path with spaces, quotes, `%`,
// `$` or markup cannot change what the service runs.

export interface ServiceSpec {
  /** The service's name: letters, digits, `-`, `_` and `.` only (see isValidServiceName). */
  name: string;
  /** The program and its arguments, exactly as they are to be run. */
  command: readonly string[];
  workingDirectory: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function isValidServiceName(name: string): boolean {
  return NAME.test(name);
}

/** One ExecStart word: double-quoted, with systemd's specifiers (`%`) and variables (`$`) escaped. */
function systemdWord(word: string): string {
  const escaped = word
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/%/g, '%%')
    .replace(/\$/g, '$$$$')
    .replace(/\n/g, '\\n');
  return `"${escaped}"`;
}

export function systemdUnitName(name: string): string {
  return `groove-${name}.service`;
}

export function renderSystemdUnit(spec: ServiceSpec): string {
  return [
    '[Unit]',
    `Description=groove knowledge-base server (${spec.name})`,
    'After=network.target',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${spec.command.map(systemdWord).join(' ')}`,
    `WorkingDirectory=${spec.workingDirectory.replace(/%/g, '%%')}`,
    'Restart=on-failure',
    'RestartSec=5',
    'UMask=0077',
    'NoNewPrivileges=yes',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function launchdLabel(name: string): string {
  return `com.groove.${name}`;
}

export function renderLaunchdPlist(spec: ServiceSpec, logPath: string): string {
  const args = spec.command.map((word) => `    <string>${xml(word)}</string>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    '  <key>Label</key>',
    `  <string>${xml(launchdLabel(spec.name))}</string>`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...args,
    '  </array>',
    '  <key>WorkingDirectory</key>',
    `  <string>${xml(spec.workingDirectory)}</string>`,
    '  <key>RunAtLoad</key>',
    '  <true/>',
    '  <key>KeepAlive</key>',
    '  <dict><key>SuccessfulExit</key><false/></dict>',
    '  <key>Umask</key>',
    '  <integer>63</integer>',
    '  <key>StandardErrorPath</key>',
    `  <string>${xml(logPath)}</string>`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}
