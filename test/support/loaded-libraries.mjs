// Preloaded with `node --import` by tests: when the process exits, writes the native model libraries it mapped
// (onnxruntime, sharp / libvips, read from /proc/self/maps) as JSON to $GROOVE_TEST_LIBRARIES_OUT. A library
// loaded by any thread stays mapped until exit, so this sees what a worker thread loaded too. Linux only.
import fs from 'node:fs';

const out = process.env.GROOVE_TEST_LIBRARIES_OUT;
if (out) {
  process.on('exit', () => {
    const mapped = fs
      .readFileSync('/proc/self/maps', 'utf8')
      .split('\n')
      .map((line) => line.trim().split(/\s+/)[5] ?? '')
      .filter((file) => /onnxruntime|sharp|vips/.test(file));
    fs.writeFileSync(out, JSON.stringify([...new Set(mapped)]));
  });
}
