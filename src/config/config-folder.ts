// groove's configuration folder, where the KB registry (kbs.toml) lives.
import path from 'node:path';

type Env = Record<string, string | undefined>;

/**
 * `$GROOVE_HOME/config` when GROOVE_HOME is set, else `$XDG_CONFIG_HOME/groove`, else `<home>/.config/groove`.
 * Only absolute values count: a relative GROOVE_HOME or XDG_CONFIG_HOME is ignored, as the XDG rules say.
 */
export function grooveConfigDir(env: Env, home: string): string {
  const grooveHome = absoluteOrNull(env.GROOVE_HOME);
  if (grooveHome) return path.join(grooveHome, 'config');
  const xdg = absoluteOrNull(env.XDG_CONFIG_HOME);
  return path.join(xdg ?? path.join(home, '.config'), 'groove');
}

function absoluteOrNull(value: string | undefined): string | null {
  return value && path.isAbsolute(value) ? value : null;
}
