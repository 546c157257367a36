// The model runtime (@huggingface/transformers, which brings onnxruntime-node) is an optional peer of groove-kb:
// a lexical-only install goes without its few hundred megabytes. Whether it is installed is told before any
// model is downloaded or loaded, with the command that installs it.
import { createRequire } from 'node:module';
import { GrooveError } from '../errors.js';

/** The runtime's package and the version groove is built and tested against. */
export const MODEL_RUNTIME_PACKAGE = '@huggingface/transformers';
export const MODEL_RUNTIME_VERSION = '4.3.1';

const requireHere = createRequire(import.meta.url);

/** The runtime's entry file, or null when it is not installed where groove can load it from. */
export function modelRuntimeEntry(): string | null {
  try {
    return requireHere.resolve(MODEL_RUNTIME_PACKAGE);
  } catch {
    return null;
  }
}

/** MODEL_UNAVAILABLE naming the package to install, for a local model asked for without the runtime. */
export function modelRuntimeMissing(): GrooveError {
  const spec = `${MODEL_RUNTIME_PACKAGE}@${MODEL_RUNTIME_VERSION}`;
  return new GrooveError(
    'MODEL_UNAVAILABLE',
    `The model runtime is not installed: local embedding and reranker models need the optional package ${spec}, which groove-kb does not install by itself.`,
    {
      hint: `install it beside groove (\`npm install -g ${spec}\` for a global groove, \`npm install ${spec}\` in a project), or use --model none`,
    },
  );
}

/** Throw modelRuntimeMissing() unless the runtime can be loaded. */
export function assertModelRuntime(): void {
  if (modelRuntimeEntry() === null) throw modelRuntimeMissing();
}
