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

/**
 * One ExecStart word per systemd.syntax(7) and systemd.service(5): double-quoted; `\` and `"` backslash-escaped;
 * specifiers (`%` → `%%`) and variables (`$` → `$$`) escaped; control characters as C escapes (`\r`, `\x01`,
 * `\u0085`), so no byte of the word can end the line, unbalance the quotes or be substituted.
 */
function systemdWord(word: string): string {
  const escaped = word.replace(/[\\"%$\p{Cc}]/gu, (ch) => SYSTEMD_ESCAPES[ch] ?? controlEscape(ch));
  return `"${escaped}"`;
}

const SYSTEMD_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '"': '\\"',
  '%': '%%',
  $: '$$',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** `\xNN` for an ASCII control (systemd turns it into that byte), `\uNNNN` for a C1 one (into its UTF-8). */
function controlEscape(ch: string): string {
  const code = ch.codePointAt(0)!;
  const hex = code.toString(16).padStart(code < 0x80 ? 2 : 4, '0');
  return code < 0x80 ? `\\x${hex}` : `\\u${hex}`;
}

/**
 * The WorkingDirectory= value: `%` escaped, and a `/` appended so that a folder whose name ends with `\` or a
 * space neither continues the line nor loses the space. systemd does not unescape this setting, so a folder
 * with a control character in its path cannot be written at all (see `unitPathProblem`).
 */
function systemdPath(folder: string): string {
  return `${folder.replace(/%/g, '%%')}${folder.endsWith('/') ? '' : '/'}`;
}

/** Why `folder` cannot be a unit's WorkingDirectory=, or null when it can. */
export function unitPathProblem(folder: string): string | null {
  if (/\p{Cc}/u.test(folder)) return 'it holds a control character (a line break, a tab…)';
  return null;
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
    `WorkingDirectory=${systemdPath(spec.workingDirectory)}`,
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
