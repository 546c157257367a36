// Public library API: explicit named exports only.
export { DEFAULTS } from './config/defaults.js';
export type { ErrorCode } from './errors.js';
export { GrooveError, isGrooveError } from './errors.js';
export type * from './types.js';
