// What one groove.toml key declares — its TOML path, the setting it sets, its type and bounds, its built-in
// default and its description — and the types of the settings and of the file, derived from a table of keys.

export type KeyType = 'integer' | 'number' | 'boolean' | 'string' | 'size' | 'choice' | 'url' | 'list';

/** The values a key (or one entry of a list key) takes. */
export interface ValueSpec {
  type: KeyType;
  /** Numbers: the inclusive bounds; strings: the characters; lists: the entries. */
  min?: number;
  max?: number;
  /** Choices: the values allowed, in the order the docs list them. */
  values?: readonly string[];
  /** Strings: the pattern the whole value matches, and the message of a value that does not. */
  pattern?: { regex: RegExp; message: string };
  /** Strings: text the value must contain, and the message of a value that does not. */
  contains?: { text: string; message: string };
  /** Lists: what each entry takes. */
  entry?: ValueSpec;
}

/** A key as written in the table; `toml` and `description` are added by `key`. */
export interface KeySpec extends ValueSpec {
  /** The built-in value, in DEFAULTS; absent for a setting that only the resolved configuration carries. */
  default?: unknown;
  /** The dotted settings path it sets; absent: the TOML path in camelCase. */
  setting?: string;
  /** How the file's value becomes the setting (sizes parsed, paths expanded against the file's folder). */
  read?: (value: never, baseDir: string) => unknown;
  /** The docs' default cell, where the value alone does not say it. */
  docDefault?: string;
}

export interface ConfigKey extends KeySpec {
  /** The dotted groove.toml path, e.g. `search.mmr.same_doc_penalty`; null for a setting derived from others. */
  toml: string | null;
  setting: string;
  description: string;
}

/** A string of at least one character. */
export const nonEmpty = { type: 'string', min: 1 } as const;
/** A list of non-empty strings, at most `max` of them. */
export const nonEmptyList = (max: number) => ({ type: 'list', max, entry: nonEmpty }) as const;
/** A BM25 column weight. */
export const weight = { type: 'number', min: 0, max: 1e6 } as const;
export const fraction = { type: 'number', min: 0, max: 1 } as const;
/** The description of a key that sets a search parameter's default (the search parameter table describes it). */
export const searchParameter = (name: string) =>
  `the default of the search parameter [\`${name}\`](#search-parameters)`;

type Camel<S extends string> = S extends `${infer Head}_${infer Rest}`
  ? `${Head}${Capitalize<Camel<Rest>>}`
  : S;

const camelCase = (path: string) => path.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

type Keyed<T extends string, K extends KeySpec> = K & {
  toml: T;
  setting: K extends { setting: infer S extends string } ? S : Camel<T>;
  description: string;
};

/** One groove.toml key. */
export function key<const T extends string, const K extends KeySpec>(
  toml: T,
  spec: K,
  description: string,
): Keyed<T, K> {
  return { ...spec, toml, setting: spec.setting ?? camelCase(toml), description } as Keyed<T, K>;
}

/** A setting no file sets: the value the others imply (resolve-config derives it). */
export function derived<const S extends string, const K extends KeySpec>(
  setting: S,
  spec: K,
  description: string,
): K & { toml: null; setting: S; description: string } {
  return { ...spec, toml: null, setting, description };
}

type Widen<V> = V extends string ? string : V extends number ? number : V;

/** The type of a setting taking the values `S` describes. */
type ValueOf<S> = S extends { type: 'choice'; values: readonly (infer V)[] }
  ? V
  : S extends { type: 'integer' | 'number' | 'size' }
    ? number
    : S extends { type: 'boolean' }
      ? boolean
      : S extends { type: 'list'; entry: infer E }
        ? Widen<ValueOf<E>>[]
        : string;

type SettingValue<K> = K extends { default: null } ? ValueOf<K> | null : ValueOf<K>;

/** A byte size is written as a count or as a string such as "50MiB". */
type FileValue<K> = K extends { type: 'size' } ? number | string : ValueOf<K>;

type Nest<P extends string, V> = P extends `${infer Head}.${infer Rest}`
  ? { [Name in Head]: Nest<Rest, V> }
  : { [Name in P]: V };
type OptionalNest<P extends string, V> = P extends `${infer Head}.${infer Rest}`
  ? { [Name in Head]?: OptionalNest<Rest, V> }
  : { [Name in P]?: V };
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;
type Flat<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]: Flat<T[K]> } : T;

/** The settings with a built-in value, nested by their settings paths: the type of DEFAULTS. */
export type SettingsOf<Keys extends readonly ConfigKey[]> = Flat<
  UnionToIntersection<
    Keys[number] extends infer K
      ? K extends { setting: infer S extends string; default: unknown }
        ? Nest<S, SettingValue<K>>
        : never
      : never
  >
>;

/** A validated groove.toml, every key optional, nested by TOML paths. */
export type FileOf<Keys extends readonly ConfigKey[]> = Flat<
  UnionToIntersection<
    Keys[number] extends infer K
      ? K extends { toml: infer T extends string }
        ? OptionalNest<T, FileValue<K>>
        : never
      : never
  >
>;

/** The value at a dotted path of a nested object; undefined where a part is missing. */
export function valueAt(object: object, path: string): unknown {
  let value: unknown = object;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Sets the value at a dotted path, creating the objects on the way. */
export function setAt(object: object, path: string, value: unknown): void {
  const parts = path.split('.');
  const last = parts.pop()!;
  let target = object as Record<string, unknown>;
  for (const part of parts) {
    target[part] ??= {};
    target = target[part] as Record<string, unknown>;
  }
  target[last] = value;
}
