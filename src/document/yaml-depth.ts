// How deeply YAML read from users' files may nest. Frontmatter and golden sets need a few levels; deeper input is
// refused with one clear reason, whether the parser itself ran out of stack or the parsed value is too deep.

export const MAX_YAML_DEPTH = 64;

export const YAML_TOO_DEEP = `nested deeper than ${MAX_YAML_DEPTH} levels of lists or mappings`;

/** The reason to report for a YAML parse failure: the stack-exhaustion message becomes YAML_TOO_DEEP. */
export function yamlFailureReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof RangeError || message.startsWith('Maximum call stack size exceeded'))
    return YAML_TOO_DEEP;
  return message.split('\n')[0] ?? message;
}

/** True when `value` nests arrays/objects deeper than `maxDepth` (walked with an explicit stack, never recursion). */
export function nestsDeeperThan(value: unknown, maxDepth = MAX_YAML_DEPTH): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const { value: current, depth } = pending.pop()!;
    if (current === null || typeof current !== 'object' || seen.has(current)) continue;
    if (depth >= maxDepth) return true;
    seen.add(current);
    const children = current instanceof Map ? [...current.values()] : Object.values(current);
    for (const child of children) pending.push({ value: child, depth: depth + 1 });
  }
  return false;
}
