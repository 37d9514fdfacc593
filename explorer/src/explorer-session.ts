import type { ElicitResult } from '@modelcontextprotocol/client';
import type { Outcome } from './call-outcome.js';
import type { ExplorerConfig } from './explorer-config.js';
import type { Caller, ManifestEntry, McpConnection, Question } from './mcp-connection.js';

/** The last thing the user asked of the server: what "Copy test" repeats. */
export type Action =
  | { kind: 'tool'; name: string; arguments: Record<string, unknown>; outcome: Outcome }
  | { kind: 'prompt'; name: string; arguments: Record<string, string>; outcome: Outcome }
  | { kind: 'resource'; uri: string; outcome: Outcome };

/** What the panels share: the caller's connection and the page's services. */
export interface ExplorerSession {
  config: ExplorerConfig;
  connection: McpConnection;
  caller: Caller;
  /** What the manifest resource says of each tool. */
  manifest: Record<string, ManifestEntry>;
  /** Asks the user a question of the server in a dialog. */
  ask(question: Question): Promise<ElicitResult>;
  /** Where the server's log notifications go while a call runs. */
  setLogSink(sink: ((line: string) => void) | undefined): void;
  recordAction(action: Action): void;
}
