// The facade's feedback and golden-set work for one KB: record_feedback under its bounds, golden sets built from
// feedback, stamped or imported, and the KB's default golden file. The facade hands over what it owns.
import fs from 'node:fs';
import type { ResolvedConfig } from '../config/resolve-config.js';
import { createJudgmentBudget, type JudgmentBudget } from '../rank/judgment-budget.js';
import { filePorts } from './adapters.js';
import {
  assertWithinRate,
  buildGoldenFromFeedback,
  type FeedbackInput,
  type FeedbackReceipt,
  type GoldenBuildOptions,
  type GoldenBuildResult,
  type GoldenImportOptions,
  type GoldenImportResult,
  type GoldenPorts,
  type GoldenStampResult,
  importGolden,
  recordFeedback,
  stampGolden,
  withGoldenDefault,
} from './golden/index.js';
import { type IndexBackend, kbGoldenPathOf, withFeedbackDatabase } from './indexing/index.js';

/** What the golden work reads of its facade; `settings` is read at each call (it follows the index's model). */
export interface KbGoldenOwner {
  kbPath: string;
  dbPath: string;
  backend: IndexBackend;
  /** Runs work while no rebuild swaps the index file. */
  file: { outsideSwap<T>(work: () => Promise<T>): Promise<T> };
  settings: () => ResolvedConfig;
  now: () => Date;
}

/**
 * The settings with the default golden file filled in: read from the KB's `.groove-eval.yml`, else from its own
 * folder in groove's data folder; written only there (withGoldenDefault).
 */
export function goldenSettingsOf(
  settings: ResolvedConfig,
  kbPath: string,
  use: 'read' | 'write',
): ResolvedConfig {
  if (settings.eval.golden !== null) return settings;
  const own = kbGoldenPathOf(settings, kbPath, use === 'write');
  return withGoldenDefault(settings, kbPath, own, use, fs.existsSync);
}

export class KbGolden {
  constructor(private readonly owner: KbGoldenOwner) {}

  /** A new client's record_feedback budget: [feedback] judgments_per_minute, on this knowledge base's clock. */
  newFeedbackBudget(): JudgmentBudget {
    const { now, settings } = this.owner;
    return createJudgmentBudget(settings().feedback.judgmentsPerMinute, () => now().getTime());
  }

  /** record_feedback: store one serve's judgments in the index file (kept across re-index and --force). */
  async recordFeedback(input: FeedbackInput, budget: JudgmentBudget | null): Promise<FeedbackReceipt> {
    const { backend, file, dbPath, now } = this.owner;
    const refused = backend.refusal('recording feedback');
    if (refused) throw refused;
    assertWithinRate(input.items.length, budget);
    const { search, feedback } = this.owner.settings();
    return file.outsideSwap(() =>
      withFeedbackDatabase(dbPath, (database) =>
        recordFeedback(input, {
          ...database,
          insert: (serve) => database.insert(serve, search.boost.halfLifeDays),
          maxJudgments: feedback.maxJudgments,
          budget,
          now,
        }),
      ),
    );
  }

  /** `groove eval golden build --from-feedback`: the four filters, then the golden YAML and its sidecar. */
  build(options: GoldenBuildOptions): Promise<GoldenBuildResult> {
    const { backend, file, dbPath, kbPath } = this.owner;
    const refused = backend.refusal('building a golden set from feedback');
    if (refused) return Promise.reject(refused);
    return file.outsideSwap(() =>
      withFeedbackDatabase(dbPath, (database) =>
        buildGoldenFromFeedback(options, {
          config: this.settingsFor('write'),
          kbPath,
          ports: {
            ...this.ports(database.counts),
            readServes: database.readServes,
            isIndexed: database.isIndexed,
          },
        }),
      ),
    );
  }

  /** `groove eval golden stamp`: write the sidecar dating the golden set against the index as it is now. */
  stamp(options: { golden?: string }): Promise<GoldenStampResult> {
    const { backend, file, dbPath, kbPath } = this.owner;
    const refused = backend.refusal('`groove eval golden stamp`');
    if (refused) return Promise.reject(refused);
    return file.outsideSwap(() =>
      withFeedbackDatabase(dbPath, (database) =>
        stampGolden(options, {
          config: this.settingsFor('read'),
          kbPath,
          ports: this.ports(database.counts),
        }),
      ),
    );
  }

  /** `groove eval golden import`: a golden YAML from TREC/BEIR query and qrels files (no index needed). */
  import(options: GoldenImportOptions): GoldenImportResult {
    return importGolden(options, {
      config: this.settingsFor('write'),
      kbPath: this.owner.kbPath,
      ports: { readFile: filePorts.readFile, write: filePorts.write },
    });
  }

  /** The settings with this KB's default golden file filled in. */
  settingsFor(use: 'read' | 'write'): ResolvedConfig {
    return goldenSettingsOf(this.owner.settings(), this.owner.kbPath, use);
  }

  private ports(counts: GoldenPorts['counts']): GoldenPorts {
    return { readFile: filePorts.readFile, write: filePorts.write, counts, now: this.owner.now };
  }
}
