// The pooling, prefixes and token limit of a local model folder (`--model-dir`). What the folder says comes
// first: a registered model's setup when the folder holds one (registered-folder.ts) and its own
// sentence-transformers files do not contradict it, else its sentence-transformers config. When the folder says
// nothing, the setup the followed index records for it is used. A setup given by the user (flags or
// [embedding]) wins field by field. Without any of these the folder is refused (MODEL_POOLING_UNKNOWN): mean
// pooling without prefixes, guessed, silently spoils a CLS-pooled or prefix-trained model's vectors.

import { GrooveError } from '../errors.js';
import type { EmbeddingSetup, Pooling } from '../types.js';
import type { EmbeddingModelSpec } from './model-registry.js';
import { recognizeRegisteredModel } from './registered-folder.js';
import { readSentenceTransformers, type SentenceTransformersConfig } from './sentence-transformers.js';

type Json = Record<string, unknown>;

/** The setup the user gave; null fields were not given. */
export interface GivenSetup {
  pooling: Pooling | null;
  queryPrefix: string | null;
  passagePrefix: string | null;
}

export const NOTHING_GIVEN: GivenSetup = { pooling: null, queryPrefix: null, passagePrefix: null };

export interface SetupRequest {
  given: GivenSetup;
  /**
   * What the index being followed records for this folder; `unrecorded` for an index built before groove
   * recorded it, which keeps the rule it was built with: the sentence-transformers config, else mean pooling and
   * no prefixes.
   */
  recorded: EmbeddingSetup | 'unrecorded' | null;
}

export interface FolderFacts {
  /** Absolute. */
  folder: string;
  config: Json;
  tokenizerConfig: Json;
  /** The tokenizer's own limit (tokenizer_config.json `model_max_length`, capped). */
  tokenizerMaxTokens: number;
}

export interface FolderSetup {
  setup: EmbeddingSetup & { pooling: Pooling };
  maxTokens: number;
}

type Said = FolderSetup | { why: string };

function registeredSetup(spec: EmbeddingModelSpec, evidence: string): FolderSetup {
  return {
    setup: {
      pooling: spec.pooling,
      queryPrefix: spec.queryPrefix,
      passagePrefix: spec.passagePrefix,
      source: `registered model ${spec.id} (${evidence})`,
    },
    maxTokens: spec.maxTokens,
  };
}

/** How the folder's own sentence-transformers files contradict the registered model's setup, or null. */
function contradiction(st: SentenceTransformersConfig, spec: EmbeddingModelSpec): string | null {
  if (typeof st.pooling === 'string' && st.pooling !== spec.pooling) {
    return `its 1_Pooling/config.json asks for ${st.pooling} pooling, not ${spec.pooling}`;
  }
  if (st.queryPrompt !== null && st.queryPrompt !== spec.queryPrefix) {
    return `its config_sentence_transformers.json has another query prompt`;
  }
  if (st.passagePrompt !== null && st.passagePrompt !== spec.passagePrefix) {
    return `its config_sentence_transformers.json has another passage prompt`;
  }
  return null;
}

function limitOf(facts: FolderFacts, st: SentenceTransformersConfig): number {
  return Math.min(facts.tokenizerMaxTokens, st.maxSeqLength ?? Number.POSITIVE_INFINITY);
}

function whatTheFolderSays(facts: FolderFacts, st: SentenceTransformersConfig): Said {
  const recognition = recognizeRegisteredModel(facts.folder, facts.config, facts.tokenizerConfig);
  let note = recognition.spec ? null : recognition.note;
  if (recognition.spec) {
    const against = contradiction(st, recognition.spec);
    if (against === null) return registeredSetup(recognition.spec, recognition.evidence);
    note = `${recognition.evidence} names ${recognition.spec.id}, but ${against}`;
  }
  if (typeof st.pooling === 'string') {
    const setup = {
      pooling: st.pooling,
      queryPrefix: st.queryPrompt ?? '',
      passagePrefix: st.passagePrompt ?? '',
      source: 'sentence-transformers config of the folder',
    };
    return { setup, maxTokens: limitOf(facts, st) };
  }
  const notRegistered = note ?? 'it names no registered model (hub cache path, README.md, config.json)';
  const noPooling =
    st.pooling === null
      ? 'it has no sentence-transformers pooling config (1_Pooling/config.json)'
      : `its 1_Pooling/config.json asks for ${st.pooling.unsupported} pooling, which groove does not do`;
  return { why: `${notRegistered}, and ${noPooling}` };
}

/** The rule of an index built before groove recorded the setup (see SetupRequest.recorded). */
function ruleBeforeRecording(facts: FolderFacts, st: SentenceTransformersConfig): FolderSetup {
  return {
    setup: {
      pooling: st.clsTokenFlag ? 'cls' : 'mean',
      queryPrefix: st.queryPrompt ?? '',
      passagePrefix: st.passagePrompt ?? '',
      source:
        'the rule of indexes built before groove recorded pooling: sentence-transformers config, else mean',
    },
    maxTokens: facts.tokenizerMaxTokens,
  };
}

function refuse(folder: string, why: string): GrooveError {
  return new GrooveError(
    'MODEL_POOLING_UNKNOWN',
    `Model folder "${folder}" does not say how to pool its token vectors: ${why}.`,
    {
      hint:
        'pass --pooling mean or --pooling cls (and --query-prefix / --passage-prefix if the model was trained ' +
        'with them; its model card says which), or set pooling in the [embedding] section of groove.toml',
    },
  );
}

function givenFields(given: GivenSetup): string[] {
  const fields: [keyof GivenSetup, string][] = [
    ['pooling', 'pooling'],
    ['queryPrefix', 'query prefix'],
    ['passagePrefix', 'passage prefix'],
  ];
  return fields.filter(([key]) => given[key] !== null).map(([, name]) => name);
}

/** The setup the index records, as a base when the folder says nothing. */
function recordedBase(request: SetupRequest, maxTokens: number): FolderSetup | null {
  const recorded = request.recorded;
  if (recorded === null || recorded === 'unrecorded' || recorded.pooling === null) return null;
  return { setup: { ...recorded, pooling: recorded.pooling }, maxTokens };
}

/** Decide the folder's setup; throws MODEL_POOLING_UNKNOWN when nothing says how to pool. */
export function resolveFolderSetup(facts: FolderFacts, request: SetupRequest): FolderSetup {
  const st = readSentenceTransformers(facts.folder);
  const said =
    request.recorded === 'unrecorded' ? ruleBeforeRecording(facts, st) : whatTheFolderSays(facts, st);
  const base = 'setup' in said ? said : recordedBase(request, limitOf(facts, st));
  const { given } = request;
  const pooling = given.pooling ?? base?.setup.pooling;
  if (!pooling) throw refuse(facts.folder, 'why' in said ? said.why : 'nothing says how');
  const givenText = `given: ${givenFields(given).join(', ')}`;
  const source = !base
    ? givenText
    : givenFields(given).length === 0
      ? base.setup.source
      : `${base.setup.source}; ${givenText}`;
  return {
    setup: {
      pooling,
      queryPrefix: given.queryPrefix ?? base?.setup.queryPrefix ?? st.queryPrompt ?? '',
      passagePrefix: given.passagePrefix ?? base?.setup.passagePrefix ?? st.passagePrompt ?? '',
      source,
    },
    maxTokens: base?.maxTokens ?? limitOf(facts, st),
  };
}
