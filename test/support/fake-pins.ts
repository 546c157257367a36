// Small stand-in model files and the pins that match them, so download tests verify real checksums of bytes
// they control. Test-only.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ModelPin } from '../../src/models/model-pins.js';

export const FAKE_REVISION = 'c0ffee0000000000000000000000000000000001';

/** The four files a q8 registry model needs, with distinct deterministic bytes (the ONNX one `onnxBytes` long). */
export function fakeModelFiles(seed: string, onnxBytes = 64 * 1024): Record<string, Buffer> {
  const bytes = (name: string, length: number) => {
    const out = Buffer.alloc(length);
    let block = Buffer.alloc(0);
    for (let i = 0; i < length; i += 32) {
      block = crypto.createHash('sha256').update(`${seed}/${name}/${i}`).digest();
      block.copy(out, i);
    }
    return out;
  };
  return {
    'config.json': Buffer.from(JSON.stringify({ fake: seed, hidden_size: 384 })),
    'tokenizer.json': bytes('tokenizer', 3000),
    'tokenizer_config.json': Buffer.from(JSON.stringify({ tokenizer: seed })),
    'onnx/model_quantized.onnx': bytes('onnx', onnxBytes),
  };
}

export function pinOf(files: Record<string, Buffer>, revision = FAKE_REVISION): ModelPin {
  const pinned: ModelPin['files'] = {};
  for (const [file, body] of Object.entries(files)) {
    (pinned as Record<string, { size: number; sha256: string }>)[file] = {
      size: body.length,
      sha256: crypto.createHash('sha256').update(body).digest('hex'),
    };
  }
  return { revision, files: pinned };
}

/** The pin of a model folder as it is on disk (its four q8 files), e.g. a generated test model. */
export function pinOfFolder(folder: string, revision = FAKE_REVISION): ModelPin {
  const names = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx'];
  return pinOf(
    Object.fromEntries(names.map((n) => [n, fs.readFileSync(path.join(folder, ...n.split('/')))])),
    revision,
  );
}

/** Write `files` under `folder` (paths with `/` become subfolders). */
export function writeFiles(folder: string, files: Record<string, Buffer>): void {
  for (const [file, body] of Object.entries(files)) {
    const full = path.join(folder, ...file.split('/'));
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, body);
  }
}

/** Every file under `folder`, relative, sorted (for "no temporary file left" checks). */
export function listFiles(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return (fs.readdirSync(folder, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(folder, path.join(e.parentPath, e.name)))
    .sort();
}
