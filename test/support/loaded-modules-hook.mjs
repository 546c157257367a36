// Module hook registered by loaded-libraries.mjs: appends the URL of every module loaded from node_modules to the
// file it is given, one a line, as the load happens (hooks run on their own thread; the write is synchronous).
import fs from 'node:fs';

let out = null;

export function initialize(data) {
  out = data.out;
}

export async function load(url, context, nextLoad) {
  if (out && url.includes('/node_modules/')) fs.appendFileSync(out, `${url}\n`);
  return nextLoad(url, context);
}
