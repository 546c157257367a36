// The validate feature's public surface: frontmatter checked against the KB's schema, without an index.
export type { Violation, ViolationKind } from './validate-frontmatter.js';
export {
  type FileViolations,
  type ValidateRequest,
  type ValidationReport,
  validateKnowledgeBase,
} from './validate-kb.js';
