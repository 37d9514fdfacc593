/**
 * The contract file (`mcp-contract.json`): what an app's MCP servers publish, per server,
 * caller and locale, in a form that is the same on every run so that it can be checked in
 * and compared (`nestjs-mcp contract --check`).
 */

/** The version of the file format; a file of another version is refused, not guessed at. */
export const CONTRACT_VERSION = 1;

/** The caller label of a contract made without credentials. */
export const ANONYMOUS_CALLER = 'anonymous';

/** The locale label of a contract made without `Accept-Language`: the server's own texts. */
export const DEFAULT_LOCALE = 'default';

/** The list requests a contract is made of. */
export type ContractListMethod =
  'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list';

/**
 * Whatever can list one server's entries as one caller sees them: the CLI's in-process
 * requester, the testing kit's client. Each call returns every page of the list, joined.
 */
export interface ContractLister {
  list(method: ContractListMethod): Promise<Record<string, unknown>[]>;
  /**
   * The limits of a listed tool (`@McpTool({ timeoutMs, concurrency })` and the `tools`
   * option): part of the contract, though no list shows them.
   */
  toolLimits?(name: string): ContractToolLimits | undefined;
}

/** A tool's limits as the contract records them: `concurrency` in its full form. */
export interface ContractToolLimits {
  readonly timeoutMs?: number;
  readonly concurrency?: {
    readonly max?: number;
    readonly perCaller?: number;
    readonly queue: number;
  };
}

/** Whom a contract is about; only labels, never credentials. */
export interface ContractLabels {
  /** The server's name (its `McpModule` `name`). */
  readonly server: string;
  /**
   * Who asked, as a label (`reader`, `authorization: Bearer <sha256:1a2b3c4d>`).
   * @default 'anonymous'
   */
  readonly caller?: string;
  /**
   * The locale asked for (`de`, `en-US`).
   * @default 'default'
   */
  readonly locale?: string;
}

/** A published tool, as the contract records it (fields the server left out are absent). */
export type ContractEntry = Record<string, unknown>;

/** What one server publishes to one caller in one locale. */
export interface ServerContract {
  readonly server: string;
  readonly caller: string;
  readonly locale: string;
  /** Sorted by `name`. */
  readonly tools: readonly ContractEntry[];
  /** Sorted by `name`. */
  readonly prompts: readonly ContractEntry[];
  /** Sorted by `uri`. */
  readonly resources: readonly ContractEntry[];
  /** Sorted by `uriTemplate`. */
  readonly resourceTemplates: readonly ContractEntry[];
}

/** The whole file. */
export interface McpContract {
  readonly contractVersion: typeof CONTRACT_VERSION;
  /** Sorted by server, then caller, then locale. */
  readonly servers: readonly ServerContract[];
}
