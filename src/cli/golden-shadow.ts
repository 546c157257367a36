// After `groove eval golden build` or `import` wrote to their default place (groove's data folder): the golden
// file inside the KB that `groove eval` reads first, when there is one.
import fs from 'node:fs';
import path from 'node:path';

const KB_GOLDEN_NAME = '.groove-eval.yml';

/** The KB's own `.groove-eval.yml` that shadows a golden set written by default at `written`, or null. */
export function shadowingGolden(
  kbPath: string | null,
  written: string,
  outFlag: string | undefined,
): string | null {
  if (outFlag !== undefined || kbPath === null) return null;
  const inKb = path.join(kbPath, KB_GOLDEN_NAME);
  return inKb !== written && fs.existsSync(inKb) ? inKb : null;
}
