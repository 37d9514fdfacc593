import Module, { register } from 'node:module';

// Loaded with `node --import` before a bench process imports `nestjs-mcp`.
register('./resolve-hook.js', import.meta.url);

// The telemetry experiment's "absent" server: `@opentelemetry/*` cannot be resolved, by
// `import` (resolve-hook.ts) or by `require` (here), as in an app that does not install it.
if (process.env.BENCH_HIDE_OPENTELEMETRY === '1') {
  const modules = Module as unknown as {
    _resolveFilename: (request: string, ...rest: unknown[]) => string;
  };
  const resolveFilename = modules._resolveFilename;
  modules._resolveFilename = function (request: string, ...rest: unknown[]) {
    if (request.startsWith('@opentelemetry/')) {
      throw Object.assign(new Error(`Cannot find module '${request}' (hidden by the bench)`), {
        code: 'MODULE_NOT_FOUND',
      });
    }
    return resolveFilename.call(this, request, ...rest);
  };
}
