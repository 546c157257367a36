// What a model download needs besides the model: the hub's address and environment (token, proxies, the
// Hugging Face cache), the pins to verify against, and the network limits. Plain data, so it crosses to the
// inference thread as it is.
import type { HubEnvironment } from '../types.js';
import type { ModelPin } from './model-pins.js';

export interface HubSettings extends Partial<HubEnvironment> {
  /** Pins by registry id, instead of the registry's (tests, a build that pins other files). */
  pins?: Readonly<Record<string, ModelPin>>;
  /** A request that receives nothing for this long fails (and is retried). Default 30 s. */
  idleTimeoutMs?: number;
  /** Failed attempts at one file that brought no new bytes, before the download gives up. Default 5. */
  maxRetries?: number;
  /** First backoff step, doubled per retry (capped at 30 s). Default 1000 ms. */
  retryBaseMs?: number;
}

export const DEFAULT_HUB_ENDPOINT = 'https://huggingface.co';

export interface ResolvedHubSettings {
  /** Base URL without a trailing slash: files are at `<endpoint>/<repo>/resolve/<revision>/<path>`. */
  endpoint: string;
  token: string | null;
  hubCacheDir: string | null;
  httpsProxy: string | null;
  httpProxy: string | null;
  noProxy: string | null;
  idleTimeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
}

/** Every setting with its default filled in; `endpoint` is `HF_ENDPOINT` or the public hub. */
export function resolveHubSettings(
  endpoint: string | null | undefined,
  hub: HubSettings = {},
): ResolvedHubSettings {
  return {
    endpoint: (endpoint || DEFAULT_HUB_ENDPOINT).replace(/\/+$/, ''),
    token: hub.token ?? null,
    hubCacheDir: hub.hubCacheDir ?? null,
    httpsProxy: hub.httpsProxy ?? null,
    httpProxy: hub.httpProxy ?? null,
    noProxy: hub.noProxy ?? null,
    idleTimeoutMs: hub.idleTimeoutMs ?? 30_000,
    maxRetries: hub.maxRetries ?? 5,
    retryBaseMs: hub.retryBaseMs ?? 1000,
  };
}
