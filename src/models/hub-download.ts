// Fetching a registered model's files from its pinned revision on the hub into the model cache folder.
// Each file is `<endpoint>/<repo>/resolve/<revision>/<path>` (never a branch such as `main`), downloaded and
// verified by downloadPinnedFile; a file that does not match its pin is MODEL_CHECKSUM, any other failure is
// thrown as it is for the caller to explain.
import path from 'node:path';
import { downloadPinnedFile, HubStatusError, PinMismatchError } from './file-download.js';
import type { ResolvedHubSettings } from './hub-settings.js';
import { checksumError } from './model-cache.js';
import type { ModelPin } from './model-pins.js';
import type { ModelProgressListener } from './model-progress.js';
import type { ModelSpec } from './model-registry.js';
import { rememberVerified } from './verified-files.js';

export interface DownloadPinnedModelOptions {
  spec: ModelSpec;
  pin: ModelPin;
  /** The cache folder the files go to (`<cacheDir>/<owner>/<repo>`). */
  folder: string;
  /** Repository paths to fetch; the others are already verified in `folder`. */
  files: string[];
  settings: ResolvedHubSettings;
  /** The verification record the downloaded files are entered in. */
  recordPath: string;
  progress?: ModelProgressListener;
}

/** The URL of `file` at the pinned revision; each path segment is encoded. */
export function resolveUrl(endpoint: string, repo: string, revision: string, file: string): URL {
  const encoded = file.split('/').map(encodeURIComponent).join('/');
  return new URL(`${endpoint}/${repo}/resolve/${revision}/${encoded}`);
}

function statusError(spec: ModelSpec, pin: ModelPin, file: string, status: number): Error {
  const revision = pin.revision.slice(0, 12);
  if (status === 401 || status === 403) {
    return new Error(
      `the hub refused ${spec.hubRepo} ${file} (HTTP ${status}); set HF_TOKEN if the hub needs one`,
    );
  }
  if (status === 404)
    return new Error(`the hub has no ${file} in ${spec.hubRepo} at revision ${revision} (HTTP 404)`);
  return new Error(`the hub answered HTTP ${status} for ${spec.hubRepo} ${file} at revision ${revision}`);
}

/** Download `files` of the pinned model into `folder`, one after the other, reporting progress. */
export async function downloadPinnedModel(options: DownloadPinnedModelOptions): Promise<void> {
  const { spec, pin, settings, progress } = options;
  const request = {
    tokenOrigin: new URL(settings.endpoint).origin,
    token: settings.token,
    proxy: { httpsProxy: settings.httpsProxy, httpProxy: settings.httpProxy, noProxy: settings.noProxy },
    idleTimeoutMs: settings.idleTimeoutMs,
  };
  for (const file of options.files) {
    const filePin = pin.files[file];
    if (!filePin) throw new Error(`no pin for ${file}`);
    const url = resolveUrl(settings.endpoint, spec.hubRepo, pin.revision, file);
    const dest = path.join(options.folder, ...file.split('/'));
    progress?.({ kind: 'download-start', model: spec.id, file });
    try {
      const sha256 = await downloadPinnedFile({
        url,
        dest,
        pin: filePin,
        request,
        maxRetries: settings.maxRetries,
        retryBaseMs: settings.retryBaseMs,
        onProgress: (loadedBytes) =>
          progress?.({
            kind: 'download-progress',
            model: spec.id,
            file,
            loadedBytes,
            totalBytes: filePin.size,
          }),
        onRetry: (reason, delayMs) =>
          progress?.({ kind: 'download-retry', model: spec.id, file, reason, delayMs }),
      });
      rememberVerified(options.recordPath, dest, sha256);
    } catch (error) {
      if (error instanceof PinMismatchError) {
        const hint = `nothing was kept; check HF_ENDPOINT and any proxy between groove and the hub, then run groove models pull ${spec.id} again`;
        throw checksumError(spec, file, `downloaded from ${url.host}`, error.detail, hint);
      }
      if (error instanceof HubStatusError) throw statusError(spec, pin, file, error.status);
      throw error;
    }
    progress?.({ kind: 'download-done', model: spec.id, file });
  }
}
