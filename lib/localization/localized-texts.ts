import {
  fillPlaceholders,
  MODEL_MESSAGES,
  type ModelMessageId,
  type ModelMessageParams,
} from '../content/model-messages.js';
import type { ArgumentIssue } from '../interfaces/argument-issue.interface.js';
import { issueDetailsOf } from '../validation/argument-issue.details.js';
import { pointerSegments } from '../utils/json-pointer.util.js';
import type { TranslationChain } from './translation.chain.js';

/** The library's words to the model in one locale (a call's `texts`). */
export interface LocalizedTexts {
  readonly locale: string;
  /** A library message: `_messages.<id>` when translated, else its English text. */
  message(id: ModelMessageId, params?: ModelMessageParams): string;
  /** The issues of an invalid call, each message from `_messages.<constraint>` when translated. */
  issues(issues: readonly ArgumentIssue[]): ArgumentIssue[];
}

const shownValue = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};

/** class-validator's `$constraint1`...: an array is listed with commas, as it does. */
const shownConstraint = (constraint: unknown): string =>
  Array.isArray(constraint) ? constraint.map(shownValue).join(', ') : shownValue(constraint);

/** The placeholders of one issue: `$property`, `$value`, `$constraint1`, `$constraint2`... */
function placeholdersOf(issue: ArgumentIssue): ModelMessageParams {
  const details = issueDetailsOf(issue);
  const property = details?.property ?? pointerSegments(issue.path).at(-1) ?? '';
  const params: Record<string, string> = { property, path: issue.path || '(root)' };
  if (details) {
    params.value = shownValue(details.value);
    details.constraints.forEach((constraint, index) => {
      params[`constraint${index + 1}`] = shownConstraint(constraint);
    });
  } else if (issue.allowed) {
    params.constraint1 = shownConstraint(issue.allowed);
  }
  return params;
}

/** The texts of one locale, looked up in the translation chain. */
export class ChainTexts implements LocalizedTexts {
  constructor(
    private readonly chain: TranslationChain,
    readonly locale: string,
  ) {}

  message(id: ModelMessageId, params: ModelMessageParams = {}): string {
    return fillPlaceholders(this.chain.message(this.locale, id) ?? MODEL_MESSAGES[id], params);
  }

  issues(issues: readonly ArgumentIssue[]): ArgumentIssue[] {
    return issues.map((issue) => {
      // A message the DTO wrote itself is the developer's word: kept as written.
      if (issueDetailsOf(issue)?.customMessage) return issue;
      const template = this.chain.message(this.locale, issue.constraint);
      return template === undefined
        ? issue
        : { ...issue, message: fillPlaceholders(template, placeholdersOf(issue)) };
    });
  }
}
