import { existsSync } from 'node:fs';

// `nestjs-mcp` is imported by its package name, as an app would. Should the package's
// `exports` point at a file the build did not emit, fall back to the built entry point
// so that the benchmark still measures the code that `npm run build` produced.
const FALLBACKS = ['../../dist/lib/index.js', '../../dist/index.js'].map(
  (path) => new URL(path, import.meta.url),
);

interface ResolveResult {
  url: string;
  format?: string | null;
  shortCircuit?: boolean;
}
type NextResolve = (specifier: string, context: unknown) => Promise<ResolveResult>;

export async function resolve(
  specifier: string,
  context: unknown,
  nextResolve: NextResolve,
): Promise<ResolveResult> {
  // The telemetry experiment's "absent" server (see register.ts).
  if (process.env.BENCH_HIDE_OPENTELEMETRY === '1' && specifier.startsWith('@opentelemetry/')) {
    throw Object.assign(new Error(`Cannot find package '${specifier}' (hidden by the bench)`), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
  }
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    if (specifier !== 'nestjs-mcp') throw error;
    const built = FALLBACKS.find((url) => existsSync(url));
    if (!built) throw error;
    return { url: built.href, format: 'module', shortCircuit: true };
  }
}
