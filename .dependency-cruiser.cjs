// The import rules of lib/, checked in CI (`npm run lint:deps`). The stages and why they run
// in this order: docs/architecture.md. Type-only imports count like any other: a type a
// lower stage needs is declared in that stage (or in interfaces/).

/**
 * The stages of lib/, lowest first. A module may import its own stage and the stages
 * before it, never one after it. Each entry is a path pattern below lib/.
 */
const STAGES = [
  ['utils', '^lib/utils/'],
  ['interfaces', '^lib/interfaces/'],
  ['constants', '^lib/(mcp\\.(constants|module-definition)\\.ts$|messages/)'],
  ['errors', '^lib/errors/'],
  ['content', '^lib/content/'],
  ['events', '^lib/events/'],
  ['options', '^lib/options/'],
  ['context', '^lib/context/'],
  ['authorization', '^lib/authorization/'],
  ['decorators', '^lib/decorators/'],
  ['schema', '^lib/schema/'],
  ['validation', '^lib/validation/'],
  ['localization', '^lib/localization/'],
  ['discovery', '^lib/discovery/'],
  ['execution', '^lib/execution/'],
  ['registry', '^lib/registry/'],
  ['telemetry', '^lib/telemetry/'],
  ['tasks', '^lib/tasks/'],
  ['protocol', '^lib/protocol/'],
  ['servers', '^lib/servers/'],
  ['oauth', '^lib/oauth/'],
  ['transports', '^lib/transports/'],
  ['explorer', '^lib/explorer/'],
  ['contract', '^lib/contract/'],
  ['cli', '^lib/cli/'],
  ['testing', '^lib/testing/'],
  ['plugin', '^lib/plugin/'],
  ['i18n', '^lib/i18n/'],
  ['redis', '^lib/redis/'],
  ['module', '^lib/(index|mcp\\.module|mcp-core\\.module)\\.ts$'],
];

const later = (index) => STAGES.slice(index + 1).map(([, path]) => path);

module.exports = {
  forbidden: [
    ...STAGES.slice(0, -1).map(([name, path], index) => ({
      name: `${name}-imports-only-earlier-stages`,
      comment: `${name} may import only ${STAGES.slice(0, index + 1)
        .map(([stage]) => stage)
        .join(', ')} (docs/architecture.md)`,
      severity: 'error',
      from: { path },
      to: { path: later(index) },
    })),
    {
      name: 'edges-reach-a-server-through-its-runtime',
      comment:
        'transports/, explorer/, cli/ and testing/ reach a server through its protocol runtime ' +
        '(McpProtocolRuntime), never through the registry, execution or the public host ' +
        '(docs/architecture.md, "A request flows one way").',
      severity: 'error',
      from: { path: '^lib/(transports|explorer|cli|testing)/' },
      to: { path: '^lib/(registry|execution|servers)/' },
    },
    {
      name: 'no-folder-cycles',
      comment: 'Folders of lib/ import each other one way only, type imports included.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^lib/' },
      to: { circular: true },
    },
    {
      name: 'no-file-cycles',
      comment: 'No module of lib/ reaches itself through its imports.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { circular: true },
    },
    {
      name: 'every-stage-is-known',
      comment: 'A new folder of lib/ gets its place in STAGES (and in docs/architecture.md).',
      severity: 'error',
      from: { path: '^lib/', pathNot: STAGES.map(([, path]) => path) },
      to: {},
    },
    {
      name: 'only-known-stages-are-imported',
      comment: 'A new folder of lib/ gets its place in STAGES (and in docs/architecture.md).',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^lib/', pathNot: STAGES.map(([, path]) => path) },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: { path: '^lib/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^lib/',
    // Type-only imports (`import type`) are dependencies too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.build.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
