import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  LoggingMessageNotificationParams,
  Progress,
} from '@modelcontextprotocol/client';

/** A progress notification of a request: `{ progress, total?, message? }`. */
export type McpTestProgress = Progress;

/** A log message the server sent (`notifications/message`): `{ level, data, logger? }`. */
export type McpTestLog = LoggingMessageNotificationParams;

/**
 * An input request of the server while a call runs: an elicitation (ask the user) or a
 * sampling request (ask the model). On 2026-07-28 it arrives inside an `input_required`
 * result, on a 2025 connection as a server-to-client request; the kit hands both over the
 * same way.
 */
export type McpQuestion =
  | { readonly method: 'elicitation/create'; readonly params: ElicitRequest['params'] }
  | { readonly method: 'sampling/createMessage'; readonly params: CreateMessageRequest['params'] };

/**
 * Answers an input request: an `ElicitResult` (`{ action: 'accept', content }`,
 * `{ action: 'decline' }`) for an elicitation, a `CreateMessageResult` for sampling.
 */
export type McpQuestionAnswerer = (
  question: McpQuestion,
) => ElicitResult | CreateMessageResult | Promise<ElicitResult | CreateMessageResult>;

/** What a request listens to and answers while it runs. */
export interface McpTestHooks {
  onProgress?: (progress: McpTestProgress) => void;
  onLog?: (log: McpTestLog) => void;
  answer?: McpQuestionAnswerer;
}
