// The groove.toml schema, generated from the table of keys (config-keys.ts): strict zod objects (unknown keys
// rejected), snake_case as written in the file, each section's keys in the table's order.
import * as z from 'zod';
import type { ConfigKey, FileOf, ValueSpec } from './config-key.js';
import { CONFIG_KEYS } from './config-keys.js';

const finite = () => z.number().refine(Number.isFinite, 'must be a finite number');

const sizeValue = () =>
  z.union([
    z.number().int().min(1),
    z
      .string()
      .regex(
        /^\s*\d+\s*(b|kb|mb|gb|kib|mib|gib)?\s*$/i,
        'must be a byte count like 52428800, "50MiB" or "20MB"',
      ),
  ]);

function numberSchema(spec: ValueSpec, base: z.ZodNumber): z.ZodNumber {
  let schema = base;
  if (spec.min !== undefined) schema = schema.min(spec.min);
  if (spec.max !== undefined) schema = schema.max(spec.max);
  return schema;
}

function stringSchema(spec: ValueSpec): z.ZodType {
  let schema = z.string();
  if (spec.min !== undefined) schema = schema.min(spec.min);
  if (spec.max !== undefined) schema = schema.max(spec.max);
  if (spec.pattern !== undefined) schema = schema.regex(spec.pattern.regex, spec.pattern.message);
  const contains = spec.contains;
  return contains === undefined ? schema : schema.refine((s) => s.includes(contains.text), contains.message);
}

function listSchema(spec: ValueSpec): z.ZodType {
  let schema = z.array(valueSchema(spec.entry!));
  if (spec.min !== undefined) schema = schema.min(spec.min);
  if (spec.max !== undefined) schema = schema.max(spec.max);
  return schema;
}

function valueSchema(spec: ValueSpec): z.ZodType {
  switch (spec.type) {
    case 'integer':
      return numberSchema(spec, z.number().int());
    case 'number':
      return numberSchema(spec, finite());
    case 'boolean':
      return z.boolean();
    case 'string':
      return stringSchema(spec);
    case 'size':
      return sizeValue();
    case 'choice':
      return z.enum(spec.values as [string, ...string[]]);
    case 'url':
      return z.url();
    case 'list':
      return listSchema(spec);
  }
}

/** A section's keys and subsections, in the order they first appear in the table. */
interface Section {
  [name: string]: Section | ConfigKey;
}

function sectionsOf(keys: readonly ConfigKey[]): Section {
  const root: Section = {};
  for (const key of keys) {
    if (key.toml === null) continue;
    const parts = key.toml.split('.');
    const name = parts.pop()!;
    let section = root;
    for (const part of parts) {
      section[part] ??= {};
      section = section[part] as Section;
    }
    section[name] = key;
  }
  return root;
}

const isKey = (entry: Section | ConfigKey): entry is ConfigKey => typeof entry.toml === 'string';

function objectSchema(section: Section): z.ZodType {
  return z.strictObject(
    Object.fromEntries(
      Object.entries(section).map(([name, entry]) => [
        name,
        (isKey(entry) ? valueSchema(entry) : objectSchema(entry)).optional(),
      ]),
    ),
  );
}

export type ConfigFile = FileOf<typeof CONFIG_KEYS>;

let built: z.ZodType<ConfigFile> | null = null;

/** The groove.toml schema, built on first use (only a run that reads a config file pays for it). */
export function configFileSchema(): z.ZodType<ConfigFile> {
  built ??= objectSchema(sectionsOf(CONFIG_KEYS)) as unknown as z.ZodType<ConfigFile>;
  return built;
}
