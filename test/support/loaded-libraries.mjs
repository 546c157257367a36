// Preloaded with `node --import` by tests: when the process exits, writes the model libraries it loaded as JSON to
// $GROOVE_TEST_LIBRARIES_OUT — the native ones it mapped (onnxruntime, sharp / libvips, read from
// /proc/self/maps; a library loaded by any thread stays mapped until exit, so this sees what a worker thread
// loaded too) and the JavaScript packages @huggingface/transformers, onnxruntime-* and sharp imported by the main
// thread (seen by a module hook, loaded-modules-hook.mjs). Linux only.
import fs from 'node:fs';
import { register } from 'node:module';

const out = process.env.GROOVE_TEST_LIBRARIES_OUT;
const MODEL_LIBRARY = /onnxruntime|sharp|vips|@huggingface\/transformers/;
if (out) {
  const modulesOut = `${out}.modules`;
  fs.writeFileSync(modulesOut, '');
  register('./loaded-modules-hook.mjs', import.meta.url, { data: { out: modulesOut } });
  process.on('exit', () => {
    const mapped = fs
      .readFileSync('/proc/self/maps', 'utf8')
      .split('\n')
      .map((line) => line.trim().split(/\s+/)[5] ?? '');
    const imported = fs
      .readFileSync(modulesOut, 'utf8')
      .split('\n')
      .map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? '');
    const found = [...mapped, ...imported].filter((name) => MODEL_LIBRARY.test(name));
    fs.writeFileSync(out, JSON.stringify([...new Set(found)]));
  });
}
