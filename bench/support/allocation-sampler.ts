import { Session } from 'node:inspector/promises';
import type { AllocationReading } from './ipc.js';

/** A node of V8's sampling heap profile (`HeapProfiler.SamplingHeapProfile`). */
interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

/** Where an allocation's file belongs, for the per-request summary. */
function groupOf(url: string): string {
  if (url.includes('/@opentelemetry/')) return 'OpenTelemetry API and SDK';
  if (url.includes('/dist-bench/')) return 'bench app (and floors)';
  if (url.includes('/@modelcontextprotocol/') || url.includes('/zod/')) return 'MCP SDK and zod';
  // Packages have `dist/` folders too (path-to-regexp's): only the library's own is ours.
  if (url.includes('/node_modules/')) return 'other packages';
  if (url.includes('/dist/telemetry/')) return 'nestjs-mcp telemetry';
  if (url.includes('/dist/')) return 'nestjs-mcp (rest)';
  return 'Node.js and V8';
}

/**
 * Samples what a server process allocates, garbage included (V8's sampling heap profiler
 * with the objects that minor and major collections freed): bytes per request do not move
 * with the machine's load, where CPU time does.
 */
export class AllocationSampler {
  private session?: Session;

  async start(): Promise<void> {
    const session = new Session();
    session.connect();
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 512,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    this.session = session;
  }

  async stop(requests: number): Promise<AllocationReading> {
    const session = this.session;
    if (!session) throw new Error('alloc-stop without alloc-start');
    this.session = undefined;
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as {
      profile: { head: ProfileNode };
    };
    session.disconnect();
    const bytesByGroup: Record<string, number> = {};
    const byFunction = new Map<string, number>();
    const visit = (node: ProfileNode) => {
      if (node.selfSize > 0) {
        const { functionName, url, lineNumber } = node.callFrame;
        const group = groupOf(url);
        bytesByGroup[group] = (bytesByGroup[group] ?? 0) + node.selfSize;
        const file = url.replace(/.*node_modules\//, '').replace(/.*\/dist\//, 'dist/');
        const key = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
        byFunction.set(key, (byFunction.get(key) ?? 0) + node.selfSize);
      }
      for (const child of node.children) visit(child);
    };
    visit(profile.head);
    const top = [...byFunction].toSorted((a, b) => b[1] - a[1]).slice(0, 25);
    return { requests, bytesByGroup, top };
  }
}
