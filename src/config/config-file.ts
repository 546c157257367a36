// Where groove.toml is found, and how one is read: size-capped, parsed as TOML, validated by the schema, every
// problem a CONFIG_INVALID (or CONFIG_NOT_FOUND) that names the file and the key.
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import type * as z from 'zod';
import { GrooveError } from '../errors.js';
import { MIB } from './byte-size.js';
import { expandPath } from './expand-path.js';
import { type ConfigFile, configFileSchema } from './schema.js';

const MAX_CONFIG_BYTES = 1 * MIB;
const GIT_WALK_DIRS = 20;

/** Discovery order: --config, ./groove.toml, the .git-ancestor walk (20 dirs), none. */
export function findConfigFile(options: { configPath?: string; cwd: string }): string | null {
  if (options.configPath !== undefined) {
    const explicit = expandPath(options.configPath, options.cwd);
    if (!fs.existsSync(explicit)) {
      throw new GrooveError('CONFIG_NOT_FOUND', `config file "${explicit}" does not exist`, {
        hint: 'check the --config path',
      });
    }
    return explicit;
  }
  const local = path.join(options.cwd, 'groove.toml');
  if (fs.existsSync(local)) return local;
  let dir = path.resolve(options.cwd);
  for (let step = 0; step < GIT_WALK_DIRS; step++) {
    if (fs.existsSync(path.join(dir, '.git'))) {
      const candidate = path.join(dir, 'groove.toml');
      return fs.existsSync(candidate) ? candidate : null;
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

/** Read and validate one config file. */
export function readConfigFile(file: string): ConfigFile {
  let text: string;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) throw new Error('not a regular file');
    if (stat.size > MAX_CONFIG_BYTES) throw new Error(`${stat.size} bytes, over the 1 MiB cap`);
    text = fs.readFileSync(file, 'utf8');
  } catch (cause) {
    throw new GrooveError('CONFIG_INVALID', `cannot read config "${file}": ${(cause as Error).message}`, {
      cause,
      hint: 'fix the file or pass another with --config',
    });
  }
  let raw: unknown;
  try {
    raw = { ...(parseToml(text) as object) };
  } catch (cause) {
    const reason = (cause as Error).message.split('\n')[0];
    throw new GrooveError('CONFIG_INVALID', `config "${file}" is not valid TOML: ${reason}`, { cause });
  }
  const parsed = configFileSchema().safeParse(raw);
  if (!parsed.success) throw new GrooveError('CONFIG_INVALID', describeSchemaError(file, parsed.error));
  return parsed.data;
}

/** Keys groove once read, with what replaced them: refused with that, never ignored. */
const RETIRED_KEYS: Record<string, string> = {
  'search.min_confidence_ratio':
    'was replaced by [search] min_confidence, a threshold on the confidence in [0, 1] (docs/search.md#confidence); the top / mean score ratio has no equivalent: remove the key, and set min_confidence or fit it with `groove tune`',
};

function describeSchemaError(file: string, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return `config "${file}" is invalid`;
  const where = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') {
    const key = [...issue.path, issue.keys[0]].join('.');
    const retired = RETIRED_KEYS[key];
    if (retired) return `config "${file}": key "${key}" ${retired}`;
    return `config "${file}": unknown key "${key}" (remove it or check its spelling; see docs/configuration.md)`;
  }
  return `config "${file}": key "${where}" ${issue.message}`;
}
