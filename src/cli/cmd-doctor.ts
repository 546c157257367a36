// `groove doctor`: integrity and servability checks on the index. Exit 0 with no findings (or info only), 1 with
// any error or warning (a damaged or foreign file at the index path included), 2 when doctor cannot run (no
// knowledge base, no file at the index path…).
import { type DoctorReport, doctorReportToJson } from '../app/index.js';
import { describeError } from '../errors.js';
import { EXIT } from './cli-io.js';
import type { DoctorFlags } from './command-options.js';
import type { RunContext } from './command-spec.js';
import { renderDoctorReport } from './render-doctor.js';
import { withKnowledgeBase } from './with-knowledge-base.js';

export async function run({ flags, io }: RunContext<DoctorFlags>): Promise<number> {
  let report: DoctorReport;
  try {
    report = await withKnowledgeBase(flags, io, 'write', async (kb) => kb.doctor());
  } catch (error) {
    io.stderr.write(`groove: error: ${describeError(error)}\n`);
    return EXIT.usage;
  }
  io.stdout.write(
    flags.format === 'json' ? `${JSON.stringify(doctorReportToJson(report))}\n` : renderDoctorReport(report),
  );
  return report.findings.every((finding) => finding.severity === 'info') ? EXIT.ok : EXIT.failure;
}
