// A first index with a real (tiny, generated) ONNX model, SIGKILLed while it embeds: the killed run had already
// written every file's text, so searches answer by keyword with the vector leg partial; doctor says the chunks
// are queued, not lost; and the next run embeds only what is left, without re-reading a file.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { killBinWhen, runBin } from '../support/run-bin.js';
import { createTempKb, type TempKb } from '../support/temp-kb.js';
import { ensureTinyModel } from '../support/test-models.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const hasDist = fs.existsSync(path.join(repoRoot, 'dist/src/cli/main.js'));
const skipReason = 'dist/ is missing: run `npm run build` (npm test builds before vitest)';

let kb: TempKb;
let modelDir: string;
beforeEach(() => {
  kb = createTempKb();
  modelDir = ensureTinyModel('embed');
  // One chunk per embedding call, so the run is killed with most of the queue still to do.
  fs.writeFileSync(path.join(kb.root, 'groove.toml'), '[embedding]\nbatch_size = 1\n');
});
afterEach(() => kb.cleanup());

const NOTES = 40;
const kbArgs = () => ['--kb-path', kb.kbPath, '--db-path', kb.dbPath];
const groove = (args: string[]) => runBin(args, kb.root);
const json = (args: string[]) => {
  const run = groove([...args, ...kbArgs(), '--format', 'json']);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  return { code: run.code, value: JSON.parse(run.stdout) };
};

function note(n: number): string {
  const sections = Array.from(
    { length: 4 },
    (_, s) =>
      `## Part ${s}\n\nNote ${n} part ${s} mentions marker${n}x${s} among ordinary words about backups.\n`,
  );
  return `# Note ${n}\n\n${sections.join('\n')}`;
}

describe.skipIf(!hasDist)(
  `an index killed while embedding (${hasDist ? 'dist present' : skipReason})`,
  () => {
    it('keeps its text searchable, says what is queued, and finishes on the next run', async () => {
      for (let n = 0; n < NOTES; n++) kb.write(`notes/n${n}.md`, note(n));
      const { signal, stderr } = await killBinWhen(
        ['index', ...kbArgs(), '--model-dir', modelDir],
        kb.root,
        (soFar) => /^ {2}embedded \d+\//m.test(soFar),
      );
      expect(signal).toBe('SIGKILL');
      expect(stderr).toMatch(/groove: embedding \d+ chunks \(searchable by keyword already/);

      const status = json(['status']).value;
      expect(status.documents).toBe(NOTES);
      expect(status.pending_embeddings).toBeGreaterThan(0);
      expect(status.vectors + status.pending_embeddings).toBe(status.chunks);

      const search = json(['search', 'marker17x2']);
      expect(search.code).toBe(0);
      // The random tiny model's vector hit ties with the keyword hit in fusion; the keyword hit is served.
      expect(search.value.results.slice(0, 3).map((hit: { path: string }) => hit.path)).toContain(
        'notes/n17.md',
      );
      expect(search.value.legs.lexical.status).toBe('ok');
      expect(search.value.legs.vector).toMatchObject({
        status: 'partial',
        coverage: { embedded: status.vectors, chunks: status.chunks },
      });

      const doctor = json(['doctor']);
      expect(doctor.code).toBe(1);
      // Queued, not missing; and the killed writer's lock is stale (the next run takes it over).
      expect(doctor.value.findings.map((f: { check: string }) => f.check)).toEqual([
        'embedding-pending',
        'stale-writer-lock',
      ]);
      expect(doctor.value.findings[0].count).toBe(status.pending_embeddings);

      const rerun = json(['index', '--model-dir', modelDir]);
      expect(rerun.code).toBe(0);
      expect(rerun.value).toMatchObject({
        unchanged: NOTES,
        indexed: 0,
        embedded_chunks: status.pending_embeddings,
        pending_embeddings: 0,
      });
      const after = json(['search', 'marker17x2']).value;
      expect(after.legs.vector.status).toBe('ok');
      expect(json(['status']).value).toMatchObject({ vectors: status.chunks, pending_embeddings: 0 });
    }, 120_000);
  },
);
