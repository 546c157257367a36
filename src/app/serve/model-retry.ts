// `groove serve` with an embedding model that could not load yet (not downloaded, the hub or the endpoint out of
// reach): the server answers by keyword and tries the model again in the background, waiting twice as long after
// each failure up to a ceiling. Once the model loads, searches use it and one index run embeds the chunks that
// waited for it.
import { describeError } from '../../errors.js';

/** What the retry drives: the facade's model retry and the server's index runner. */
export interface ModelRetryTarget {
  /** Resolves once the model loads; rejects with why it did not. */
  retryModel(): Promise<void>;
}

export interface ModelRetryOptions {
  target: ModelRetryTarget;
  /** An index run that embeds the waiting chunks (the runner's sync). */
  embedWaiting: () => Promise<unknown>;
  log: (line: string) => void;
  /** The wait before the first try; doubled after each failure. */
  firstDelayMs: number;
  /** The longest wait between two tries. */
  maxDelayMs: number;
}

/** The first wait when GROOVE_MODEL_RETRY_MS does not say. */
export const MODEL_RETRY_FIRST_MS = 30_000;
/** The longest wait between tries. */
export const MODEL_RETRY_MAX_MS = 600_000;

export interface ModelRetryHandle {
  /** `retrying` until the model loads, then `loaded`; `stopped` after close. */
  state(): 'retrying' | 'loaded' | 'stopped';
  /** Stop trying; resolves once a try in progress has settled. */
  close(): Promise<void>;
}

export function retryModelInBackground(options: ModelRetryOptions): ModelRetryHandle {
  let state: 'retrying' | 'loaded' | 'stopped' = 'retrying';
  let delay = options.firstDelayMs;
  let timer: NodeJS.Timeout | null = null;
  let attempt: Promise<void> = Promise.resolve();

  const schedule = () => {
    timer = setTimeout(() => {
      timer = null;
      attempt = tryOnce();
    }, delay);
    timer.unref();
  };

  const tryOnce = async () => {
    try {
      await options.target.retryModel();
    } catch (error) {
      if (state !== 'retrying') return;
      delay = Math.min(delay * 2, options.maxDelayMs);
      options.log(
        `the embedding model is still not available (${describeError(error)}); answering by keyword, next try in ${Math.round(delay / 1000)} s`,
      );
      schedule();
      return;
    }
    if (state !== 'retrying') return;
    state = 'loaded';
    options.log(
      'the embedding model loaded: searches use it, and the chunks waiting for it are embedded now',
    );
    await options.embedWaiting().catch((error: unknown) => {
      options.log(`embedding the waiting chunks failed: ${describeError(error)}`);
    });
  };

  schedule();
  return {
    state: () => state,
    async close() {
      state = 'stopped';
      if (timer) clearTimeout(timer);
      await attempt;
    },
  };
}
