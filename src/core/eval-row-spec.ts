// One `--rows` entry of eval (`core`, `rerank`, `mmr+parent`, …) read into its stages and its name.
import { GrooveError } from '../errors.js';

export const ROW_STAGES = ['core', 'rerank', 'mmr', 'parent'] as const;
export type RowStage = (typeof ROW_STAGES)[number];

export interface RowSpec {
  /** The stages in the order first written, each once, joined by `+`. */
  name: string;
  stages: ReadonlySet<RowStage>;
}

/** An INVALID_ARGUMENT about `--rows`, with an example of a valid list. */
export function rowError(message: string): GrooveError {
  return new GrooveError('INVALID_ARGUMENT', message, {
    hint: 'e.g. --rows core,rerank,mmr,parent (the first row is the decision row)',
  });
}

/** A row is stages joined by `+` (spaces around a stage are ignored); an unknown stage is refused. */
export function parseRowSpec(raw: string): RowSpec {
  const written = raw.split('+').map((s) => s.trim());
  for (const stage of written) {
    if (!(ROW_STAGES as readonly string[]).includes(stage)) {
      throw rowError(`unknown row stage "${stage}" in "${raw}"; rows are made of ${ROW_STAGES.join(', ')}`);
    }
  }
  const stages = new Set(written as RowStage[]);
  return { name: [...stages].join('+'), stages };
}
