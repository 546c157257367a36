// The Hugging Face variables of an environment: offline switches, the token, the proxies and the hub cache.
import path from 'node:path';
import type { HubEnvironment } from '../types.js';

type Env = Record<string, string | undefined>;

/** A Hugging Face boolean: 1, true, yes or on (any case) is true. */
function isTrue(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}

/** HF_HUB_OFFLINE and TRANSFORMERS_OFFLINE mean what --offline means. */
export function hubOfflineFrom(env: Env): boolean {
  return isTrue(env.HF_HUB_OFFLINE) || isTrue(env.TRANSFORMERS_OFFLINE);
}

/**
 * The Hugging Face hub cache: HF_HUB_CACHE, else HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else
 * ~/.cache/huggingface/hub (the hub's own order). Relative values are taken against `cwd`.
 */
export function hubCacheDirFrom(env: Env, homeDir: string, cwd: string): string {
  if (env.HF_HUB_CACHE) return path.resolve(cwd, env.HF_HUB_CACHE);
  if (env.HF_HOME) return path.resolve(cwd, env.HF_HOME, 'hub');
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'huggingface', 'hub');
  return path.join(homeDir, '.cache', 'huggingface', 'hub');
}

/** Token, hub cache and proxies; for each proxy variable the lowercase name wins, empty values count as unset. */
export function hubEnvironmentFrom(env: Env, homeDir: string, cwd: string): HubEnvironment {
  const proxy = (name: string) => env[name.toLowerCase()] || env[name] || null;
  return {
    token: env.HF_TOKEN || null,
    hubCacheDir: hubCacheDirFrom(env, homeDir, cwd),
    httpsProxy: proxy('HTTPS_PROXY'),
    httpProxy: proxy('HTTP_PROXY'),
    noProxy: proxy('NO_PROXY'),
  };
}
