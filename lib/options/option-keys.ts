import type {
  McpAuthIntrospectionOptions,
  McpAuthOptions,
} from '../interfaces/mcp-auth-options.interface.js';
import type {
  McpDiscoveryOptions,
  McpDiscoveryRepository,
} from '../interfaces/mcp-discovery-options.interface.js';
import type { McpAppsOptions } from '../interfaces/mcp-app-options.interface.js';
import type { McpExplorerOptions } from '../interfaces/mcp-explorer-options.interface.js';
import type { McpI18nOptions } from '../interfaces/mcp-i18n-options.interface.js';
import type { McpTasksOptions } from '../interfaces/mcp-task-options.interface.js';
import type { McpTelemetryOptions } from '../interfaces/mcp-telemetry-options.interface.js';
import type {
  McpToolConcurrency,
  McpToolDefaults,
} from '../interfaces/mcp-tool-options.interface.js';
import type {
  LegacySessionOptions,
  McpHttpOptions,
} from '../interfaces/mcp-http-options.interface.js';
import type {
  McpModuleAsyncOptions,
  McpModuleOptions,
  McpRequestStateOptions,
  McpSchemaOptions,
} from '../interfaces/mcp-module-options.interface.js';

/** A key whose value is checked as a whole (a string, a list, a function, ...). */
export const VALUE = 'value';

/**
 * The keys one level of an options object accepts. A key described by a nested level
 * (`http`, `http.legacySessions`) has its keys checked too when its value is an object.
 * Both the unknown-key check and the nearest-name search read these, so they cannot
 * disagree.
 */
export interface OptionKeys {
  readonly [key: string]: typeof VALUE | OptionKeys;
}

/**
 * Every key of `Options`, no more and no fewer: an option added to an interface but not
 * here is a compile error, so a new option is never refused as unknown (or let through
 * unchecked). The order is the one of the interface, which "valid options are" lists.
 */
export type OptionKeysOf<Options> = Record<keyof Options, typeof VALUE | OptionKeys>;

export const LEGACY_SESSION_OPTION_KEYS = {
  idleTimeoutMs: VALUE,
  maxSessions: VALUE,
  maxSessionsPerCaller: VALUE,
  maxStreamsPerSession: VALUE,
} as const satisfies OptionKeysOf<LegacySessionOptions>;

export const HTTP_OPTION_KEYS = {
  path: VALUE,
  guards: VALUE,
  allowedHosts: VALUE,
  allowedOrigins: VALUE,
  dnsRebindingProtection: VALUE,
  maxBodyBytes: VALUE,
  maxJsonDepth: VALUE,
  shutdownTimeoutMs: VALUE,
  maxStreamsPerCaller: VALUE,
  maxListenStreams: VALUE,
  maxStreamBufferBytes: VALUE,
  bodyTimeoutMs: VALUE,
  headersTimeoutMs: VALUE,
  legacySessions: LEGACY_SESSION_OPTION_KEYS,
  leanPath: VALUE,
  publicUrl: VALUE,
} as const satisfies OptionKeysOf<McpHttpOptions>;

export const REQUEST_STATE_OPTION_KEYS = {
  secret: VALUE,
  ttlSeconds: VALUE,
} as const satisfies OptionKeysOf<McpRequestStateOptions>;

export const SCHEMA_OPTION_KEYS = {
  nullableOptionals: VALUE,
} as const satisfies OptionKeysOf<McpSchemaOptions>;

export const AUTH_INTROSPECTION_OPTION_KEYS = {
  issuer: VALUE,
  endpoint: VALUE,
  clientId: VALUE,
  clientSecret: VALUE,
  cacheTtlSeconds: VALUE,
} as const satisfies OptionKeysOf<McpAuthIntrospectionOptions>;

export const AUTH_OPTION_KEYS = {
  authorizationServers: VALUE,
  resource: VALUE,
  audience: VALUE,
  scopesSupported: VALUE,
  verifyToken: VALUE,
  introspection: AUTH_INTROSPECTION_OPTION_KEYS,
  requiredScopes: VALUE,
  resourceName: VALUE,
  resourceDocumentation: VALUE,
  algorithms: VALUE,
  clockToleranceSeconds: VALUE,
  tokenTypes: VALUE,
} as const satisfies OptionKeysOf<McpAuthOptions>;

export const TELEMETRY_OPTION_KEYS = {
  recordArguments: VALUE,
  resourceUriInSpanName: VALUE,
  phaseSpans: VALUE,
} as const satisfies OptionKeysOf<McpTelemetryOptions>;

export const TASKS_OPTION_KEYS = {
  store: VALUE,
  ttlMs: VALUE,
  pollIntervalMs: VALUE,
  maxTasks: VALUE,
  queue: VALUE,
} as const satisfies OptionKeysOf<McpTasksOptions>;

/** The keys of a `concurrency` object, of `@McpTool()` and of the `tools` option alike. */
export const TOOL_CONCURRENCY_OPTION_KEYS = {
  max: VALUE,
  perCaller: VALUE,
  queue: VALUE,
} as const satisfies OptionKeysOf<McpToolConcurrency>;

export const TOOLS_OPTION_KEYS = {
  timeoutMs: VALUE,
  concurrency: TOOL_CONCURRENCY_OPTION_KEYS,
} as const satisfies OptionKeysOf<McpToolDefaults>;

export const I18N_OPTION_KEYS = {
  defaultLocale: VALUE,
  locales: VALUE,
  translations: VALUE,
} as const satisfies OptionKeysOf<McpI18nOptions>;

export const DISCOVERY_REPOSITORY_OPTION_KEYS = {
  url: VALUE,
  source: VALUE,
  subfolder: VALUE,
  id: VALUE,
} as const satisfies OptionKeysOf<McpDiscoveryRepository>;

export const DISCOVERY_OPTION_KEYS = {
  name: VALUE,
  card: VALUE,
  aiCatalog: VALUE,
  title: VALUE,
  description: VALUE,
  websiteUrl: VALUE,
  repository: DISCOVERY_REPOSITORY_OPTION_KEYS,
  icons: VALUE,
  headers: VALUE,
} as const satisfies OptionKeysOf<McpDiscoveryOptions>;

export const EXPLORER_OPTION_KEYS = {
  enabled: VALUE,
  path: VALUE,
  title: VALUE,
} as const satisfies OptionKeysOf<McpExplorerOptions>;

export const APPS_OPTION_KEYS = {
  views: VALUE,
} as const satisfies OptionKeysOf<McpAppsOptions>;

/** The keys of `McpModule.forRoot()` options (and of what a `forRootAsync()` factory returns). */
export const MCP_MODULE_OPTION_KEYS = {
  name: VALUE,
  version: VALUE,
  instructions: VALUE,
  group: VALUE,
  groupVersion: VALUE,
  http: HTTP_OPTION_KEYS,
  callerScopes: VALUE,
  identity: VALUE,
  useGlobalFilters: VALUE,
  pageSize: VALUE,
  listTemplatesAsResources: VALUE,
  maxUriLength: VALUE,
  requestState: REQUEST_STATE_OPTION_KEYS,
  schema: SCHEMA_OPTION_KEYS,
  auth: AUTH_OPTION_KEYS,
  telemetry: TELEMETRY_OPTION_KEYS,
  naming: VALUE,
  manifest: VALUE,
  tasks: TASKS_OPTION_KEYS,
  tools: TOOLS_OPTION_KEYS,
  extensions: VALUE,
  apps: APPS_OPTION_KEYS,
  i18n: I18N_OPTION_KEYS,
  scaleOut: VALUE,
  discovery: DISCOVERY_OPTION_KEYS,
  explorer: EXPLORER_OPTION_KEYS,
} as const satisfies OptionKeysOf<McpModuleOptions>;

/** The keys of `McpModule.forRootAsync()` options. */
export const MCP_MODULE_ASYNC_OPTION_KEYS = {
  imports: VALUE,
  useFactory: VALUE,
  inject: VALUE,
  useClass: VALUE,
  useExisting: VALUE,
  extraProviders: VALUE,
  provideInjectionTokensFrom: VALUE,
} as const satisfies OptionKeysOf<McpModuleAsyncOptions>;

/**
 * The keys of `bootstrapStdio()` options. `StdioBootstrapOptions` belongs to a later
 * stage (transports), which this one may not import, so the check that these are all of
 * its keys is a type-level test (test/options/option-keys.spec.ts).
 */
export const STDIO_BOOTSTRAP_OPTION_KEYS = {
  request: VALUE,
  guards: VALUE,
  server: VALUE,
  logger: VALUE,
  legacy: VALUE,
  exitOnClose: VALUE,
  locale: VALUE,
  stdin: VALUE,
  stdout: VALUE,
} as const satisfies OptionKeys;
