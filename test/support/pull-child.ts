// A second process for the download tests (`node --import tsx pull-child.ts '<PullModelOptions as JSON>'`):
// pulls a model as groove would and prints `{"ok":true,...}` or `{"ok":false,"code":…,"message":…}`. Proxy
// variables and NODE_EXTRA_CA_CERTS come from its environment like a user's would. Test-only.
import os from 'node:os';
import { hubEnvironmentFrom } from '../../src/config/hub-environment.js';
import { GrooveError } from '../../src/errors.js';
import { pullModel } from '../../src/models/model-pull.js';

const options = JSON.parse(process.argv[2] ?? '{}');
const hub = { ...hubEnvironmentFrom(process.env, os.homedir(), process.cwd()), ...options.hub };
try {
  const result = await pullModel({ ...options, hub });
  process.stdout.write(JSON.stringify({ ok: true, result }));
} catch (error) {
  const code = error instanceof GrooveError ? error.code : 'NOT_GROOVE';
  const message = error instanceof Error ? error.message : String(error);
  process.stdout.write(JSON.stringify({ ok: false, code, message }));
  process.exitCode = 1;
}
