// "No writes to SDK internals": lib/ never writes a member whose name starts with `_` on
// an object it does not own (the SDK marks its private state so: `_negotiatedProtocolVersion`,
// `_clientCapabilities`, `_onstdinclose`...). What the library needs from the SDK goes
// through its public API; a rule the library must restate lives in one adapter, with a
// test that fails when the SDK changes (test/transports/http/lean-exchange.transport.spec.ts).
//
// The scan reads every .ts file under lib/ with the TypeScript parser (a syntax tree, not
// regular expressions: unused parameters like `_encoding` and keys like `_meta` stay
// apart from member writes), and reports each finding as `file:line: text`. A write through
// `this` passes only for a member the class around it declares itself: `this._x = v` in a
// subclass of an SDK class writes the SDK's field. And lib/ declares no `_` member but the
// listed hooks (DECLARED_EXCEPTIONS), so in practice every `_` write is reported.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LIB = join(ROOT, 'lib');

/**
 * The `_` members lib/ may declare or override in its classes, each a documented hook of
 * the class it extends (not a field written from outside). A new one needs a conscious
 * entry here, with its reason.
 */
const DECLARED_EXCEPTIONS: ReadonlyArray<{ file: string; member: string; why: string }> = [
  {
    file: 'lib/protocol/catalog-mcp.server.ts',
    member: '_wrapHandler',
    why: "the SDK Protocol's documented hook for subclasses (`protected _wrapHandler`)",
  },
  {
    file: 'lib/transports/http/fastify-route.hook.ts',
    member: '_transform',
    why: "Node's `stream.Transform` implementation method (the documented API for implementers)",
  },
];

/**
 * Keys starting with `_` that are data, not members: `_meta` is the MCP wire's reserved
 * metadata key (results, requests, tool definitions all carry it).
 */
const DATA_KEYS: ReadonlySet<string> = new Set(['_meta']);

/** Calls that write a named property: `Object.defineProperty(target, '_x', ...)` and kin. */
const PROPERTY_WRITERS: ReadonlySet<string> = new Set([
  'Object.defineProperty',
  'Reflect.defineProperty',
  'Reflect.set',
]);

const isUnderscored = (name: string | undefined): name is string =>
  name !== undefined && name.startsWith('_') && !DATA_KEYS.has(name);

/** The name of a property key or access: `_x` of `a._x`, `a['_x']`, `{ _x: 1 }`, `{ '_x': 1 }`. */
function nameOf(node: ts.Node | undefined): string | undefined {
  if (node === undefined) return undefined;
  if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) return node.text;
  if (ts.isStringLiteralLike(node) || ts.isNumericLiteral(node)) return node.text;
  if (ts.isComputedPropertyName(node)) return nameOf(node.expression);
  return undefined;
}

/** The member a write targets: `a._x` or `a['_x']`, with its receiver. */
function writtenMember(
  target: ts.Expression,
): { receiver: ts.Expression; name: string } | undefined {
  const node = ts.isParenthesizedExpression(target) ? target.expression : target;
  if (ts.isPropertyAccessExpression(node))
    return { receiver: node.expression, name: node.name.text };
  if (ts.isElementAccessExpression(node)) {
    const name = nameOf(node.argumentExpression);
    return name === undefined ? undefined : { receiver: node.expression, name };
  }
  return undefined;
}

const ASSIGNMENTS: ReadonlySet<ts.SyntaxKind> = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.PlusEqualsToken,
  ts.SyntaxKind.MinusEqualsToken,
  ts.SyntaxKind.AsteriskEqualsToken,
  ts.SyntaxKind.SlashEqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
]);

/** The members the class around a node declares itself (inherited ones are not its own). */
function ownMembersOf(node: ts.Node): ReadonlySet<string> {
  for (let at: ts.Node | undefined = node; at; at = at.parent) {
    if (ts.isClassLike(at)) {
      const names = at.members.map((member) => nameOf(member.name));
      // Constructor parameter properties (`constructor(private readonly _x)`) are members too.
      for (const member of at.members) {
        if (!ts.isConstructorDeclaration(member)) continue;
        for (const parameter of member.parameters) {
          if (ts.getModifiers(parameter)?.length) names.push(nameOf(parameter.name));
        }
      }
      return new Set(names.filter((name): name is string => name !== undefined));
    }
  }
  return new Set();
}

interface Finding {
  readonly at: string;
  readonly text: string;
}

interface ScanResult {
  /** Writes of `_` members on objects lib/ does not own, and the shapes that enable them. */
  readonly writes: Finding[];
  /** The `_` members classes declare or override, as `file#member`. */
  readonly declared: string[];
}

/** Scans one source file (`file` is its path relative to the repository, for the report). */
function scanSource(file: string, text: string): ScanResult {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const writes: Finding[] = [];
  const declared: string[] = [];
  const report = (node: ts.Node, what: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    const snippet = node.getText(source).split('\n')[0]!.trim();
    writes.push({ at: `${file}:${line + 1}`, text: `${what}: ${snippet}` });
  };
  /** A write to `receiver._x`: allowed only on `this`, for a member its own class declares. */
  const checkWrite = (node: ts.Node, target: ts.Expression, what: string) => {
    const member = writtenMember(target);
    if (!member || !isUnderscored(member.name)) return;
    const onOwnMember =
      member.receiver.kind === ts.SyntaxKind.ThisKeyword && ownMembersOf(node).has(member.name);
    if (!onOwnMember) report(node, what);
  };

  const visit = (node: ts.Node): void => {
    // `a._x = v`, `a['_x'] ??= v`, ...
    if (ts.isBinaryExpression(node) && ASSIGNMENTS.has(node.operatorToken.kind)) {
      checkWrite(node, node.left, 'assignment to a `_` member');
    }
    // `a._x++`, `--a['_x']`, `delete a._x`
    if (
      (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
      (node.operator === ts.SyntaxKind.PlusPlusToken ||
        node.operator === ts.SyntaxKind.MinusMinusToken)
    ) {
      checkWrite(node, node.operand, 'update of a `_` member');
    }
    if (ts.isDeleteExpression(node)) checkWrite(node, node.expression, 'delete of a `_` member');
    // `Object.defineProperty(a, '_x', ...)`, `Reflect.set(a, '_x', v)` (`Object.assign(a,
    // { _x: v })` and `Object.defineProperties(a, { _x: {...} })` are found by their key, below)
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const callee = node.expression.getText(source);
      const [target, key] = node.arguments;
      const name = nameOf(key);
      if (PROPERTY_WRITERS.has(callee) && isUnderscored(name)) {
        const onThis = target?.kind === ts.SyntaxKind.ThisKeyword;
        if (!onThis || !ownMembersOf(node).has(name)) report(node, `${callee} of a \`_\` member`);
      }
    }
    // An object literal or a type with a `_x` key: what a cast to an SDK type is made of
    // (`{ _x: v } as unknown as Server`, `(server as unknown as { _x: T })._x = v`), and
    // what `Object.assign` or `Object.defineProperties` would write.
    if (
      (ts.isPropertyAssignment(node) ||
        ts.isShorthandPropertyAssignment(node) ||
        (ts.isMethodDeclaration(node) && ts.isObjectLiteralExpression(node.parent))) &&
      isUnderscored(nameOf(node.name))
    ) {
      report(node, 'object key naming a `_` member');
    }
    if (
      (ts.isPropertySignature(node) || ts.isMethodSignature(node)) &&
      isUnderscored(nameOf(node.name))
    ) {
      report(node, 'type member naming a `_` member');
    }
    // Class members named `_x`: each must be a listed exception.
    if (
      ts.isClassElement(node) &&
      ts.isClassLike(node.parent) &&
      isUnderscored(nameOf(node.name))
    ) {
      declared.push(`${file}#${nameOf(node.name)}`);
    }
    if (
      ts.isParameter(node) &&
      ts.isConstructorDeclaration(node.parent) &&
      ts.getModifiers(node)?.length &&
      isUnderscored(nameOf(node.name))
    ) {
      declared.push(`${file}#${nameOf(node.name)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { writes, declared };
}

function tsFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function scanLib(): ScanResult {
  const results = tsFiles(LIB).map((path) =>
    scanSource(relative(ROOT, path).split('\\').join('/'), readFileSync(path, 'utf8')),
  );
  return {
    writes: results.flatMap((result) => result.writes),
    declared: results.flatMap((result) => result.declared),
  };
}

const listed = (findings: Finding[]) => findings.map(({ at, text }) => `${at}: ${text}`);

describe('lib/ and the SDK internals', () => {
  const scan = scanLib();

  it('scans the library', () => {
    expect(tsFiles(LIB).length).toBeGreaterThan(100);
  });

  it('writes no `_` member of an object it does not own', () => {
    expect(
      listed(scan.writes),
      'A write to an underscore-prefixed member (the SDK private state) in lib/: go through ' +
        "the SDK's public API, or keep the mirrored rule in one adapter, tested against the SDK",
    ).toEqual([]);
  });

  it('declares or overrides no `_` member but the listed hooks', () => {
    expect(
      scan.declared.toSorted(),
      'A class member whose name starts with `_` in lib/: list it in DECLARED_EXCEPTIONS ' +
        'with the documented hook it is, or rename it',
    ).toEqual(DECLARED_EXCEPTIONS.map(({ file, member }) => `${file}#${member}`).toSorted());
  });
});

/** What the scan finds in a piece of source, as if it were a file of lib/. */
const writesIn = (text: string) => listed(scanSource('lib/example.ts', text).writes);

describe('the scan', () => {
  it('finds what the lean path once did to mark a server modern', () => {
    // The former `markModern` (lean-path.rules.ts, before the lean path bound servers with
    // the SDK's PerRequestHTTPServerTransport).
    const old = `
      interface ModernMarkable {
        _supportedProtocolVersions: string[];
        _negotiatedProtocolVersion?: string;
        _clientCapabilities?: unknown;
        _clientVersion?: unknown;
        _ondiscover(): object;
      }
      export function markModern(server: Server, meta: Record<string, unknown> | undefined): void {
        const instance = server as unknown as ModernMarkable;
        instance._negotiatedProtocolVersion = MODERN_REVISION;
        if (!instance._supportedProtocolVersions.includes(MODERN_REVISION)) {
          instance._supportedProtocolVersions = [...instance._supportedProtocolVersions, MODERN_REVISION];
        }
        server.setRequestHandler('server/discover', () => instance._ondiscover() as never);
        if (meta?.capabilities !== undefined) instance._clientCapabilities = meta.capabilities;
      }`;
    expect(writesIn(old)).toEqual([
      'lib/example.ts:3: type member naming a `_` member: _supportedProtocolVersions: string[];',
      'lib/example.ts:4: type member naming a `_` member: _negotiatedProtocolVersion?: string;',
      'lib/example.ts:5: type member naming a `_` member: _clientCapabilities?: unknown;',
      'lib/example.ts:6: type member naming a `_` member: _clientVersion?: unknown;',
      'lib/example.ts:7: type member naming a `_` member: _ondiscover(): object;',
      'lib/example.ts:11: assignment to a `_` member: instance._negotiatedProtocolVersion = MODERN_REVISION',
      'lib/example.ts:13: assignment to a `_` member: instance._supportedProtocolVersions = [...instance._supportedProtocolVersions, MODERN_REVISION]',
      'lib/example.ts:16: assignment to a `_` member: instance._clientCapabilities = meta.capabilities',
    ]);
  });

  it('finds a write to an inherited member through `this`, and the other ways to write one', () => {
    const text = `
      class Drained extends StdioServerTransport {
        constructor() {
          super();
          this._onstdinclose = () => undefined;
          Object.defineProperty(this, '_ondata', { value: () => undefined });
        }
      }
      Reflect.set(server, '_clientVersion', info);
      (server as any)['_capabilities'] = {};
      Object.assign(server, { _instructions: 'x' });
      const fake = { _serverInfo: info } as unknown as Server;
      delete server._loggingLevels;`;
    expect(writesIn(text).map((finding) => finding.split(': ')[0])).toEqual([
      'lib/example.ts:5',
      'lib/example.ts:6',
      'lib/example.ts:9',
      'lib/example.ts:10',
      'lib/example.ts:11',
      'lib/example.ts:12',
      'lib/example.ts:13',
    ]);
  });

  it('leaves alone unused parameters, `_meta`, and members a class declares itself', () => {
    const text = `
      class Own {
        private _count = 0;
        bump(_by: number) { this._count += 1; }
      }
      const result = { content: [], _meta: { a: 1 } };
      result._meta = {};
      const { nextCursor: _last, ...rest } = page;`;
    const { writes, declared } = scanSource('lib/example.ts', text);
    expect(listed(writes)).toEqual([]);
    expect(declared).toEqual(['lib/example.ts#_count']);
  });
});
