import type { FactoryProvider, ModuleMetadata, Provider, Type } from '@nestjs/common';
import type { McpAppsOptions } from './mcp-app-options.interface.js';
import type { McpAuthOptions } from './mcp-auth-options.interface.js';
import type { McpDiscoveryOptions } from './mcp-discovery-options.interface.js';
import type { McpExplorerOptions } from './mcp-explorer-options.interface.js';
import type { McpExtensionSettings } from './mcp-extension-options.interface.js';
import type { McpToolNaming } from './mcp-naming.interface.js';
import type { McpI18nOptions } from './mcp-i18n-options.interface.js';
import type { McpScaleOut } from './mcp-scale-out.interface.js';
import type { McpTasksOptions } from './mcp-task-options.interface.js';
import type { McpTelemetryOptions } from './mcp-telemetry-options.interface.js';
import type { McpHttpOptions } from './mcp-http-options.interface.js';
import type { McpToolDefaults } from './mcp-tool-options.interface.js';

/** Reads a caller's scopes from the platform request: an array, or an OAuth space-separated string. */
export type CallerScopesReader = (request: any) => readonly string[] | string | undefined | null;

/** Options of `McpModule.forRoot()` (and what `forRootAsync()`'s factory returns). */
export interface McpModuleOptions {
  /** The server's name, sent to clients in `serverInfo` (for example `'catalog'`). */
  name: string;
  /** The server's version, sent to clients in `serverInfo` (for example `'1.0.0'`). */
  version: string;
  /** Instructions for the model on how to use this server's tools. */
  instructions?: string;
  /**
   * The group of entries this server publishes: only those of `@McpGroup(group)` classes
   * and methods with `{ group }`. A server without a group publishes only entries without
   * one, so grouped entries never reach it. Several servers of one app each need their own
   * `name` and `http.path`.
   * @default none: the server publishes the entries that have no group
   * @example group: 'catalog'
   */
  group?: string;
  /**
   * The version of the group this server publishes, as in Nest's URI versioning: entries
   * of the group whose `version` includes it, plus the group's entries without a version.
   * Without it, the server publishes only the group's entries without a version. Requires
   * `group`.
   * @default none: only the group's entries without a version
   * @example McpModule.forRoot({ name: 'catalog-v2', version: '2.0.0', group: 'catalog', groupVersion: '2', http: { path: 'mcp/catalog/v2' } })
   */
  groupVersion?: string;
  /**
   * The Streamable HTTP endpoint, or `false` to serve no HTTP endpoint.
   * @default { path: 'mcp', guards: [] }
   */
  http?: McpHttpOptions | false;
  /**
   * Reads the caller's scopes from the request, for `@McpScopes()`: an array, or an OAuth
   * space-separated string. Set it once where your auth puts them.
   * @default `request.user.scopes`, else `request.user.scope`, else `request.auth.scopes`
   * @example callerScopes: (request) => request.user?.permissions
   */
  callerScopes?: CallerScopesReader;
  /**
   * Who the caller of a request is, as one string: what every piece of state is bound to
   * (2025 sessions and their streams, request state, tasks, subscriptions, queued jobs). A
   * request from another caller gets the answer of an unknown id. Return `undefined` to
   * fall back to the default. Never return a credential: the identity is stored.
   * @default the OAuth issuer and subject (else client id) of `request.auth`, else
   * `request.user.id` or `.sub`, else a hash of the `Authorization` header, else anonymous
   * @example identity: (request) => request.user?.tenantId
   */
  identity?: (request: any) => string | undefined;
  /**
   * Whether the app's global exception filters run on tool calls. Method and class
   * `@UseFilters()` always do. Set `false` when global filters were written for HTTP only
   * and write the response themselves; the library then maps errors to tool results.
   * @default true
   */
  useGlobalFilters?: boolean;
  /**
   * How many entries one page of `tools/list`, `prompts/list`, `resources/list` and
   * `resources/templates/list` holds; clients fetch the next page with `nextCursor`.
   * @default 100
   */
  pageSize?: number;
  /**
   * Also lists each resource template in `resources/list` (with the template as its
   * `uri`), for clients that never call `resources/templates/list`.
   * @default false
   */
  listTemplatesAsResources?: boolean;
  /**
   * The longest resource URI this server reads, in characters (UTF-16 code units, as
   * `string.length` counts them). A longer one is refused with `-32602`, saying the limit and
   * its length, before any template is matched against it: in `resources/read`, in
   * `completion/complete` of a template, and by the OAuth step-up challenge, which finds no
   * resource. It bounds the work one request can ask of the server.
   * @default 4096
   */
  maxUriLength?: number;
  /**
   * How the state a call carries between rounds of an input-required flow
   * (`inputRequired({ requestState })`, minted with `ctx.mintRequestState()`) is signed
   * (HMAC-SHA256), so that a client cannot tamper with it.
   */
  requestState?: McpRequestStateOptions;
  /** How the JSON Schemas of this server's tool arguments are listed (and enforced). */
  schema?: McpSchemaOptions;
  /**
   * The endpoint as an OAuth 2.1 resource server: Protected Resource Metadata, verified
   * bearer tokens, 401 and 403 challenges (docs/authorization.md).
   * @default none: the endpoint's guards decide who may call
   */
  auth?: McpAuthOptions;
  /**
   * OpenTelemetry spans and metrics (docs/observability.md), or `false` for none.
   * @default on when the app registers a tracer or meter provider
   */
  telemetry?: McpTelemetryOptions | false;
  /**
   * Makes the default name of each tool that does not give one (`@McpTool({ name })`
   * always wins), from its class, method and route. `McpNaming.snakeCase` and
   * `McpNaming.qualified` are built in; `McpNaming.normalize` makes any text a portable name.
   * A name that breaks `^[a-zA-Z0-9_.-]{1,128}$` fails the bootstrap naming the method.
   * @example naming: McpNaming.qualified   // CatalogService.search → catalog_search
   * @default the method name in snake_case (`searchProducts` → `search_products`)
   */
  naming?: McpToolNaming;
  /**
   * Publishes a manifest resource (JSON): the tools the caller who reads it can see and call,
   * with their titles, descriptions, annotations and the scopes each needs; hidden tools and
   * tools the caller's guards refuse are left out. `true` publishes it at
   * `mcp://<name>/manifest`; a string is the URI to publish it at instead.
   * @default false
   */
  manifest?: boolean | string;
  /**
   * Where MCP tasks are kept and for how long (docs/tasks.md); tools become tasks with
   * `@McpTool({ task })`.
   * @default an in-memory store, tasks readable for an hour
   */
  tasks?: McpTasksOptions;
  /**
   * The `timeoutMs` and `concurrency` of every tool without its own (docs/tools.md, "Time and
   * concurrency limits"). No default timeout: only the app knows its long tools.
   * @default no timeout, no concurrency limit
   */
  tools?: McpToolDefaults;
  /**
   * Extensions (SEP-2133) the server advertises in `capabilities.extensions`, by identifier
   * with their settings (docs/extensions.md). `@McpExtension()` declares one on a provider,
   * and the extension of each `@McpMethod()` is advertised too (with `{}` unless declared).
   * @default none
   * @example extensions: { 'com.example/audit': { retentionDays: 30 } }
   */
  extensions?: Readonly<Record<string, McpExtensionSettings>>;
  /**
   * MCP Apps (docs/apps.md): views a host renders for the tools that name them
   * (`@McpTool({ app: { view } })`). A view can also come from an `@McpAppView()` method.
   * @default none
   * @example apps: { views: { 'product-card': { file: join(__dirname, 'views/product-card.html') } } }
   */
  apps?: McpAppsOptions;
  /**
   * Titles, descriptions, instructions and messages in the client's language, from YAML
   * translation files (docs/i18n.md).
   * @default none: the texts the code gives
   */
  i18n?: McpI18nOptions;
  /**
   * Several instances behind a load balancer (docs/scale-out.md): the change bus, the task
   * store, the task queue (`tasks.queue`) and the events of resumable 2025 streams are
   * shared through it, such as `new RedisScaleOut({ connection })` from
   * `nestjs-mcp/redis`. Needs `requestState.secret`, the same on every instance.
   * @default none: one instance
   */
  scaleOut?: McpScaleOut;
  /**
   * How the server describes itself before a client connects (docs/discovery.md): its
   * reverse-DNS `name`, the MCP Server Card served without authentication at
   * `<endpoint>/server-card` and listed in `/.well-known/ai-catalog.json`, and what
   * `nestjs-mcp server-json` writes for the MCP Registry.
   * @default none: no card, no catalog (the draft says servers MAY serve one)
   * @example discovery: { name: 'com.example/catalog', title: 'Product catalog' }
   */
  discovery?: McpDiscoveryOptions;
  /**
   * The explorer (docs/explorer.md): a web page at `<endpoint>/explorer` where a person
   * lists the server's tools, prompts and resources and tries them as a caller, as Swagger
   * UI does for REST. It is a client of the endpoint and adds nothing an agent cannot do.
   * `true` serves it even in production, `false` never; `{ path, title }` moves or names it.
   * @default served, except when `process.env.NODE_ENV === 'production'`
   * @example explorer: { path: '/tools-explorer', title: 'Catalog tools' }
   */
  explorer?: boolean | McpExplorerOptions;
}

/** The form of the argument schemas a server lists; the server enforces what it lists. */
export interface McpSchemaOptions {
  /**
   * Lists each `@IsOptional()` property as nullable (`"type": ["string", "null"]`, `null`
   * in an `enum`, or an `anyOf` with `{ "type": "null" }`) and accepts `null` for it, which
   * is what `@IsOptional()` means to class-validator. By default an optional property is
   * listed with its own type only and left out of `required`, the form every client and
   * model provider reads (some, such as Gemini, handle type lists poorly); a `null` sent
   * for it is then refused with a message that says to leave the property out.
   * Output schemas (`@McpTool({ output })`) keep `null` either way.
   * @default false
   */
  nullableOptionals?: boolean;
}

/** Signing of the multi round-trip request state (protocol revision 2026-07-28). */
export interface McpRequestStateOptions {
  /**
   * The HMAC key, at least 32 bytes. Give the same key to every instance behind a load
   * balancer: a state minted by one must verify on another (with `scaleOut` it is required).
   * @default a random key per process (one instance only)
   */
  secret?: string | Uint8Array;
  /**
   * How long a minted state stays valid.
   * @default 600
   */
  ttlSeconds?: number;
}

/**
 * A class that supplies the options of `McpModule.forRootAsync({ useClass })` (or
 * `useExisting`), for example from a `ConfigService` it injects.
 * @publicApi
 */
export interface McpOptionsFactory {
  createMcpOptions(): Promise<McpModuleOptions> | McpModuleOptions;
}

/**
 * Options of `McpModule.forRootAsync()`: where the `McpModuleOptions` come from, with one
 * of `useFactory`, `useClass` or `useExisting`. What it supplies is checked like the
 * options of `forRoot()`, and a mistake stops the bootstrap.
 * @publicApi
 */
export interface McpModuleAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  /**
   * Returns the options (or a promise of them), called with the providers of `inject`.
   * @example useFactory: (config: ConfigService) => ({ name: 'catalog', version: config.get('VERSION') })
   */
  useFactory?: (...args: any[]) => Promise<McpModuleOptions> | McpModuleOptions;
  /**
   * The providers `useFactory` is called with, in order; they must be visible in the
   * module (exported by one of `imports`, or global).
   * @default []
   */
  inject?: FactoryProvider['inject'];
  /** A class, created by Nest DI in this module, whose `createMcpOptions()` returns the options. */
  useClass?: Type<McpOptionsFactory>;
  /**
   * A provider that already exists (exported by one of `imports`, or global) whose
   * `createMcpOptions()` returns the options.
   */
  useExisting?: Type<McpOptionsFactory>;
  /**
   * More providers to register in the module, for `useFactory` or `useClass` to inject.
   * @default []
   */
  extraProviders?: Provider[];
  /**
   * Providers (of a module that configures this one from its own async options) among
   * which those that `inject` names, and what they depend on, are registered here, so
   * that `inject` may name them without importing their module.
   */
  provideInjectionTokensFrom?: Provider[];
}
