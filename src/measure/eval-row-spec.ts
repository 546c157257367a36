// One `--rows` entry of eval (`core`, `rerank`, `mmr+parent`, `graph+boost`, `graph+boost-honest`, …) read into
// its stages, whether it is the honest twin of a learned row, and its name.
import { GrooveError } from '../errors.js';

export const ROW_STAGES = ['core', 'rerank', 'mmr', 'parent', 'graph', 'boost'] as const;
export type RowStage = (typeof ROW_STAGES)[number];

/** The suffix of an honest row: its learned stages leave out each golden query's own judgments. */
export const HONEST_SUFFIX = '-honest';

export interface RowSpec {
  /** The stages in the order first written, each once, joined by `+`; `-honest` after them for a twin. */
  name: string;
  stages: ReadonlySet<RowStage>;
  honest: boolean;
}

/** An INVALID_ARGUMENT about `--rows`, with an example of a valid list. */
export function rowError(message: string): GrooveError {
  return new GrooveError('INVALID_ARGUMENT', message, {
    hint: 'e.g. --rows core,rerank,mmr,parent,graph+boost (the first row is the decision row)',
  });
}

/**
 * A row is stages joined by `+` (spaces around a stage are ignored), optionally ending in `-honest`; an unknown
 * stage is refused, and so is an honest row without a stage that can learn (graph, boost).
 */
export function parseRowSpec(raw: string): RowSpec {
  const trimmed = raw.trim();
  const honest = trimmed.endsWith(HONEST_SUFFIX);
  const body = honest ? trimmed.slice(0, -HONEST_SUFFIX.length) : trimmed;
  const written = body.split('+').map((s) => s.trim());
  for (const stage of written) {
    if (!(ROW_STAGES as readonly string[]).includes(stage)) {
      throw rowError(`unknown row stage "${stage}" in "${raw}"; rows are made of ${ROW_STAGES.join(', ')}`);
    }
  }
  const stages = new Set(written as RowStage[]);
  if (honest && !stages.has('graph') && !stages.has('boost')) {
    throw rowError(
      `row "${raw}" is honest but learns nothing; only rows with graph or boost have an honest twin`,
    );
  }
  return { name: `${[...stages].join('+')}${honest ? HONEST_SUFFIX : ''}`, stages, honest };
}

/**
 * Whether a row learns from judgments: it boosts, or it hops over co-helpful edges. Such a row is measured
 * with its honest twin, and the difference between them is the leak.
 */
export function learnsFromJudgments(spec: RowSpec, coHelpful: boolean): boolean {
  return spec.stages.has('boost') || (spec.stages.has('graph') && coHelpful);
}

/** The other row of a learned pair: `graph+boost` ↔ `graph+boost-honest`. */
export function twinOf(spec: RowSpec): string {
  return spec.honest ? spec.name.slice(0, -HONEST_SUFFIX.length) : `${spec.name}${HONEST_SUFFIX}`;
}
