import type { ArgumentIssue } from '../interfaces/argument-issue.interface.js';

/**
 * What a class-validator message was made from, kept beside the issue (never on it, so the
 * issues a client sees stay as documented): the translation of `_messages` fills its
 * `$property`, `$value` and `$constraint1`... from here (docs/i18n.md).
 */
export interface ArgumentIssueDetails {
  readonly property: string;
  readonly value: unknown;
  readonly constraints: readonly unknown[];
  /** The DTO wrote its own message for the rule: it is kept as written. */
  readonly customMessage: boolean;
  /** An `each: true` rule: class-validator starts its message with "each value in ". */
  readonly each: boolean;
}

const DETAILS = new WeakMap<ArgumentIssue, ArgumentIssueDetails>();

export function withIssueDetails(
  issue: ArgumentIssue,
  details: ArgumentIssueDetails,
): ArgumentIssue {
  DETAILS.set(issue, details);
  return issue;
}

export const issueDetailsOf = (issue: ArgumentIssue): ArgumentIssueDetails | undefined =>
  DETAILS.get(issue);
