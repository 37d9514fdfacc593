import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BENCH_MODES } from './bench.config.js';
import { packageOf, summarizeProfile, type ProfileGroup } from './support/cpu-profile.js';
import type { ServerSpec } from './support/ipc.js';
import { runLoad } from './support/load.js';
import { ServerHandle } from './support/server-handle.js';
import { callRequest, listRequest, type WireRequest } from './support/wire.js';

// Runs server variants under `node --cpu-prof` for one load run each and summarises where
// the CPU time of a request goes. `node dist-bench/profile.js [--seconds N] [--only NAME]`.

interface ProfileRun {
  name: string;
  spec: ServerSpec;
  request: WireRequest;
  /** Profile the process start (module loading excluded: from `NestFactory.create`) instead of a load run. */
  bootstrap?: boolean;
}

const RUNS: ProfileRun[] = [
  { name: 'ours-call-2026', spec: { kind: 'mcp', tools: 1 }, request: callRequest('modern') },
  { name: 'ours-call-2025', spec: { kind: 'mcp', tools: 1 }, request: callRequest('legacy') },
  { name: 'raw-sdk-call-2026', spec: { kind: 'raw-sdk' }, request: callRequest('modern') },
  { name: 'ours-list-100', spec: { kind: 'mcp', tools: 100 }, request: listRequest('modern') },
  { name: 'ours-list-1000', spec: { kind: 'mcp', tools: 1000 }, request: listRequest('modern') },
  { name: 'ceiling', spec: { kind: 'ceiling' }, request: callRequest('modern') },
  // Ours with `http.leanPath: false` (i), and the peer `@rekog/mcp-nest` (h).
  {
    name: 'ours-sdk-path-call-2026',
    spec: { kind: 'mcp', tools: 1, leanPath: false },
    request: callRequest('modern'),
  },
  {
    name: 'ours-sdk-path-call-2025',
    spec: { kind: 'mcp', tools: 1, leanPath: false },
    request: callRequest('legacy'),
  },
  {
    name: 'mcp-nest-call-2026',
    spec: { kind: 'mcp-nest', tools: 1 },
    request: callRequest('modern'),
  },
  {
    name: 'mcp-nest-call-2025',
    spec: { kind: 'mcp-nest', tools: 1 },
    request: callRequest('legacy'),
  },
  {
    name: 'mcp-nest-list-100',
    spec: { kind: 'mcp-nest', tools: 100 },
    request: listRequest('modern'),
  },
  // The telemetry experiment (g): no OpenTelemetry, and a registered NodeTracerProvider.
  {
    name: 'telemetry-absent-call-2026',
    spec: { kind: 'mcp', tools: 1, telemetry: 'absent' },
    request: callRequest('modern'),
  },
  {
    name: 'telemetry-api-call-2026',
    spec: { kind: 'mcp', tools: 1, telemetry: 'api' },
    request: callRequest('modern'),
  },
  {
    name: 'telemetry-basic-call-2026',
    spec: { kind: 'mcp', tools: 1, telemetry: 'basic' },
    request: callRequest('modern'),
  },
  {
    name: 'telemetry-sdk-call-2026',
    spec: { kind: 'mcp', tools: 1, telemetry: 'sdk' },
    request: callRequest('modern'),
  },
  // The hand-made floors of (g): the SDK's price for one span and one measurement.
  {
    name: 'telemetry-floor-call-2026',
    spec: { kind: 'mcp', tools: 1, telemetry: 'floor' },
    request: callRequest('modern'),
  },
  {
    name: 'telemetry-floor-node-call-2026',
    spec: { kind: 'mcp', tools: 1, telemetry: 'floor-node' },
    request: callRequest('modern'),
  },
  {
    name: 'bootstrap-1000-tools',
    spec: { kind: 'mcp', tools: 1000 },
    request: listRequest('modern'),
    bootstrap: true,
  },
];

const inUrl =
  (...parts: string[]) =>
  (frame: { url: string }) =>
    parts.some((part) => frame.url.includes(part));
const named =
  (url: string, ...names: string[]) =>
  (frame: { functionName: string; url: string }) =>
    frame.url.includes(url) && names.includes(frame.functionName);

/** Sub-operations of a request: time with a frame of each on the stack (inclusive). */
const GROUPS: ProfileGroup[] = [
  {
    name: 'bootstrap: ProtocolRuntime.onModuleInit (all below)',
    matches: named('protocol.runtime', 'onModuleInit'),
  },
  { name: 'bootstrap: McpExplorer (discovery, schemas)', matches: inUrl('/mcp.explorer.') },
  {
    name: 'bootstrap: DtoSchemaFactory (JSON Schema of DTOs)',
    matches: inUrl('/dto-schema.factory.'),
  },
  {
    name: 'bootstrap: ToolInvokerFactory.create',
    matches: named('tool-invoker.factory', 'create'),
  },
  {
    name: 'bootstrap: VisibilityFactory.create',
    matches: named('visibility.factory', 'create'),
  },
  {
    name: 'SDK server per request: build + connect (ours: SdkServerFactory.serverFor)',
    matches: (frame) =>
      named('sdk-server.factory', 'serverFor')(frame) ||
      (frame.url.includes('@modelcontextprotocol/server') &&
        ['Server', 'McpServer', 'Protocol', 'connect', 'registerTool'].includes(
          frame.functionName,
        )),
  },
  {
    name: 'SdkError built on every close (SDK Protocol._onclose)',
    matches: named('@modelcontextprotocol/server', 'SdkError'),
  },
  { name: 'zod (SDK message, envelope and result schemas)', matches: inUrl('/node_modules/zod/') },
  {
    name: 'DTO validation (DtoArgumentsValidator: class-transformer + class-validator)',
    matches: inUrl('/dto-arguments.validator.'),
  },
  { name: '  of which class-validator', matches: inUrl('/node_modules/class-validator/') },
  { name: '  of which class-transformer', matches: inUrl('/node_modules/class-transformer/') },
  {
    name: 'Nest pipeline around the tool (ExternalContextCreator)',
    matches: inUrl('/@nestjs/core/helpers/external-context-creator'),
  },
  {
    name: 'tool invoker, whole call (validation + pipeline + normaliser)',
    matches: inUrl('/tool-invoker.factory.'),
  },
  {
    name: 'McpEvents after the response (ToolCallEventsPublisher)',
    matches: inUrl('/tool-call-events.publisher.', '/events/mcp-events.'),
  },
  {
    name: 'JSON Schema check of arguments (json-schema.check)',
    matches: inUrl('/json-schema.check.'),
  },
  {
    name: 'SDK result projection (projectCallToolResult)',
    matches: named('@modelcontextprotocol/server', 'projectCallToolResult'),
  },
  {
    name: 'telemetry: McpOperation (span and histogram of a request)',
    matches: (frame) =>
      frame.url.includes('/dist/telemetry/mcp-operation.') && frame.functionName !== 'run',
  },
  {
    // Not `context.with`, under which the whole request runs.
    name: 'telemetry: OpenTelemetry API and SDK (but context.with)',
    matches: (frame) =>
      frame.url.includes('/node_modules/@opentelemetry/') && frame.functionName !== 'with',
  },
  {
    name: 'JSON.parse / JSON.stringify',
    matches: (frame) => !frame.url && ['parse', 'stringify'].includes(frame.functionName),
  },
];

const NODE_LAYERS: Array<[RegExp, string]> = [
  [
    /^node:internal\/(deps\/undici|webstreams|abort_controller|event_target|worker\/js_transferable|blob|url)/,
    'Web Request/Response bridge (undici, web streams, AbortSignal)',
  ],
  [
    /^node:(internal\/)?async_hooks|^node:internal\/async_local_storage/,
    'async hooks (AsyncLocalStorage, promise hooks)',
  ],
  [/^node:internal\/(process\/task_queues|timers)|^node:timers/, 'microtasks, ticks, timers'],
];

const PACKAGE_LAYERS: Array<[RegExp, string]> = [
  [
    /^(@modelcontextprotocol\/node|@hono\/node-server)$/,
    'Web Request/Response bridge (undici, web streams, AbortSignal)',
  ],
  [/^@modelcontextprotocol\/server$/, 'MCP SDK (handler, era routing, Server/Protocol)'],
  [/^zod$/, 'zod (SDK schemas)'],
  [
    /^(ajv|ajv-formats|fast-uri|json-schema-traverse|fast-deep-equal)$/,
    'ajv (raw SDK input validation)',
  ],
  [
    /^class-(validator|transformer)$|^validator$|^libphonenumber-js$/,
    'class-validator + class-transformer',
  ],
  [/^nestjs-mcp \(lib\)$/, 'nestjs-mcp (lib)'],
  [/^@rekog\/mcp-nest$/, 'MCP-Nest (@rekog/mcp-nest)'],
  [/^@opentelemetry\//, 'OpenTelemetry API and SDK'],
  [/^bench app$/, 'bench app (tool method)'],
  [
    /^(@nestjs\/core|@nestjs\/common|@nestjs\/microservices|rxjs|iterare|tslib|reflect-metadata)$/,
    'Nest core (router execution, DI, pipeline)',
  ],
  [
    /^(express|router|body-parser|raw-body|type-is|content-type|media-typer|iconv-lite|on-finished|parseurl|path-to-regexp|debug|ms|bytes|qs|depd|finalhandler|http-errors|statuses|send|mime-types|mime-db|vary|encodeurl|@nestjs\/platform-express|cors|object-assign|unpipe|ee-first|destroy|safer-buffer|merge-descriptors|utils-merge|setprototypeof|inherits|accepts|negotiator|fresh|etag|proxy-addr|forwarded|ipaddr\.js|cookie|cookie-signature|serve-static|escape-html|range-parser|content-disposition|methods|array-flatten|side-channel.*|get-intrinsic|es-.*|call-bind.*|has-.*|function-bind|gopd|hasown|math-intrinsics|dunder-proto|get-proto|object-inspect)$/,
    'Express, body-parser, Nest Express adapter',
  ],
];

/** The layer of a frame, for the self-time table (natives are charged to their caller). */
function layerOf(frame: { functionName: string; url: string }): string | undefined {
  if (/\/dist\/telemetry\//.test(frame.url)) return 'nestjs-mcp telemetry (lib/telemetry)';
  if (frame.url.startsWith('node:')) {
    for (const [pattern, layer] of NODE_LAYERS) if (pattern.test(frame.url)) return layer;
    return 'node http, net, streams, events';
  }
  const pkg = packageOf(frame.url);
  for (const [pattern, layer] of PACKAGE_LAYERS) if (pattern.test(pkg)) return layer;
  return `other: ${pkg}`;
}

const PROFILE_DIR = fileURLToPath(new URL('./profiles/', import.meta.url));

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const pad = (text: string, width: number) =>
  text.length > width ? text.slice(0, width - 1) + '…' : text.padEnd(width);

async function profileOne(run: ProfileRun, seconds: number) {
  const dir = `${PROFILE_DIR}${run.name}/`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const server = await ServerHandle.start(run.spec, [
    '--cpu-prof',
    `--cpu-prof-dir=${dir}`,
    '--cpu-prof-interval=250',
  ]);
  const { connections, primeS } = BENCH_MODES.short;
  if (!run.bootstrap) await runLoad(server.url, run.request, { durationS: primeS, connections });
  await server.cpuStart();
  const load = run.bootstrap
    ? { requestsPerSecond: 0 }
    : await runLoad(server.url, run.request, { durationS: seconds, connections });
  const cpu = await server.cpuStop();
  await server.close();
  if (run.bootstrap) cpu.requests = 1;
  const file = dir + readdirSync(dir).find((name) => name.endsWith('.cpuprofile'))!;
  const summary = summarizeProfile(file, {
    // The bootstrap profile starts where the app is made (the server's `bootMs` before
    // `listen()` resolved), so that loading modules does not count.
    fromMs: run.bootstrap
      ? server.ready.sinceProcessStartMs - server.ready.bootMs
      : cpu.startedAtMs,
    ...(run.bootstrap && { toMs: server.ready.sinceProcessStartMs }),
    groups: GROUPS,
    classify: layerOf,
    top: Infinity,
  });
  // The library's own functions (its dist/, not a package's), then the top 30 of all.
  const ownFunctions = summary.selfByFunction.filter((entry) => entry.name.includes(' dist/'));
  summary.selfByFunction = summary.selfByFunction.slice(0, 30);
  const ownMs = ownFunctions.reduce((sum, entry) => sum + entry.ms, 0);
  const requests = cpu.requests;
  const perRequest = (ms: number) => (ms / requests).toFixed(4);
  const lines = [
    '',
    `== ${run.name}: ${requests} requests in ${(cpu.wallMs / 1000).toFixed(1)} s (${load.requestsPerSecond.toFixed(0)} req/s under the profiler), ` +
      `process CPU ${((cpu.userUs + cpu.systemUs) / 1000 / requests).toFixed(3)} ms/req, profiled busy ${perRequest(summary.busyMs)} ms/req`,
    `   profile: ${file}`,
    '',
    '   self time by layer (natives charged to their JS caller)       ms/req   share',
    ...summary.selfByLayer.map(
      (entry) =>
        `   ${pad(entry.name, 60)} ${perRequest(entry.ms).padStart(8)} ${(entry.share * 100).toFixed(1).padStart(6)}%`,
    ),
    '',
    '   inclusive time of a part (on the stack)                        ms/req   share',
    ...summary.inclusiveByGroup
      .filter((entry) => entry.ms > 0)
      .map(
        (entry) =>
          `   ${pad(entry.name, 60)} ${perRequest(entry.ms).padStart(8)} ${(entry.share * 100).toFixed(1).padStart(6)}%`,
      ),
    '',
    '   top self time by function                                      ms/req   share',
    ...summary.selfByFunction.map(
      (entry) =>
        `   ${pad(entry.name, 60)} ${perRequest(entry.ms).padStart(8)} ${(entry.share * 100).toFixed(1).padStart(6)}%`,
    ),
    '',
    `   nestjs-mcp's own functions (self, natives not charged): ${perRequest(ownMs)} ms/req in all`,
    ...ownFunctions
      .slice(0, 15)
      .map(
        (entry) =>
          `   ${pad(entry.name, 60)} ${perRequest(entry.ms).padStart(8)} ${(entry.share * 100).toFixed(1).padStart(6)}%`,
      ),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  return {
    name: run.name,
    requests,
    cpuMsPerRequest: (cpu.userUs + cpu.systemUs) / 1000 / requests,
    summary,
    ownFunctions: ownFunctions.slice(0, 30),
  };
}

async function main(): Promise<void> {
  const seconds = Number(option('--seconds') ?? 8);
  const only = option('--only');
  const runs = RUNS.filter((run) => !only || only.split(',').includes(run.name));
  if (runs.length === 0)
    throw new Error(`no profile named ${only}; known: ${RUNS.map((r) => r.name).join(', ')}`);
  const results = [];
  for (const run of runs) results.push(await profileOne(run, seconds));
  writeFileSync(`${PROFILE_DIR}summary.json`, JSON.stringify(results, null, 2));
  process.stdout.write(`\nsummaries written to ${PROFILE_DIR}summary.json\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
