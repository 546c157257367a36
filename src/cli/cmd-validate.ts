// `groove validate`: frontmatter against the KB's schema. Exit 0 when every note passes (or there is no schema
// at the default path), 1 on violations, 2 when validation cannot run (the schema, the config or the KB).
import { validateKnowledgeBase } from '../app/index.js';
import { expandPath } from '../config/resolve-config.js';
import { describeError, isGrooveError } from '../errors.js';
import { EXIT } from './cli-io.js';
import type { ValidateFlags } from './command-options.js';
import type { RunContext } from './command-spec.js';
import { loadConfig } from './common-options.js';
import {
  renderValidationGithub,
  renderValidationText,
  renderValidationWarnings,
  validationReportToJson,
} from './render-validate.js';

export async function run({ flags, io }: RunContext<ValidateFlags>): Promise<number> {
  let report: ReturnType<typeof validateKnowledgeBase>;
  try {
    // No index is opened; --db-path only keeps the index's own files out of the walk, as in `groove index`.
    const config = loadConfig(
      { config: flags.config, kb: flags.kb, kbPath: flags.kbPath, dbPath: flags.dbPath },
      io,
    );
    const schemaPath = flags.schema === undefined ? undefined : expandPath(flags.schema, io.cwd);
    report = validateKnowledgeBase(config, { schemaPath, strict: flags.strict === true });
  } catch (error) {
    // Exit 1 means violations only: anything that stops validation from running is 2.
    if (!isGrooveError(error)) throw error;
    io.stderr.write(`groove: error: ${describeError(error)}\n`);
    return EXIT.usage;
  }
  if (flags.format === 'github') io.stdout.write(renderValidationGithub(report, io.cwd));
  else {
    io.stderr.write(renderValidationWarnings(report));
    if (flags.format === 'json') io.stdout.write(`${JSON.stringify(validationReportToJson(report))}\n`);
    else io.stdout.write(renderValidationText(report, io.cwd));
  }
  return report.files.length > 0 ? EXIT.failure : EXIT.ok;
}
