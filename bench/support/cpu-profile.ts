import { readFileSync } from 'node:fs';

/** The parts of a V8 `.cpuprofile` (as `node --cpu-prof` writes it) read here. */
interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileEntry {
  name: string;
  ms: number;
  /** Share of the busy time (all samples but idle). */
  share: number;
}

export interface ProfileGroup {
  /** A name for the group, as printed. */
  name: string;
  /** Whether a stack frame belongs to the group. */
  matches: (frame: { functionName: string; url: string }) => boolean;
}

/** Names the layer a frame belongs to; `undefined` charges the frame to its caller. */
export type FrameClassifier = (frame: { functionName: string; url: string }) => string | undefined;

export interface ProfileSummary {
  busyMs: number;
  idleMs: number;
  samples: number;
  selfByFunction: ProfileEntry[];
  selfByPackage: ProfileEntry[];
  /** Self time by layer, native frames (JSON.parse, writev, ...) charged to their caller. */
  selfByLayer: ProfileEntry[];
  /** Time with a frame of the group anywhere on the stack. */
  inclusiveByGroup: ProfileEntry[];
}

/** The package a script belongs to: `@scope/name`, `nestjs-mcp`, `node:internal`, or V8. */
export function packageOf(url: string): string {
  if (!url) return '(V8 / native)';
  if (url.startsWith('node:')) return 'node (core)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + '/node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (url.includes('/dist-bench/')) return 'bench app';
  if (url.includes('/dist/')) return 'nestjs-mcp (lib)';
  return url;
}

const shortUrl = (url: string): string => {
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) return url.slice(modules + '/node_modules/'.length);
  const dist = url.search(/\/dist(-bench)?\//);
  return dist >= 0 ? url.slice(dist + 1) : url.replace(/^file:\/\//, '');
};

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

/**
 * Self time by function and by package, and inclusive time of named groups of frames,
 * over the samples from `fromMs` (ms after the profile started) on.
 */
export function summarizeProfile(
  file: string,
  options: {
    fromMs?: number;
    toMs?: number;
    groups?: readonly ProfileGroup[];
    classify?: FrameClassifier;
    top?: number;
  } = {},
): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);

  const selfByFunction = new Map<string, number>();
  const selfByPackage = new Map<string, number>();
  const selfByLayer = new Map<string, number>();
  const classify: FrameClassifier = options.classify ?? ((frame) => packageOf(frame.url));
  const inclusive = new Map<string, number>();
  const groups = options.groups ?? [];
  let elapsedUs = 0;
  let busyUs = 0;
  let idleUs = 0;
  let counted = 0;
  const fromUs = (options.fromMs ?? 0) * 1000;
  const toUs = (options.toMs ?? Infinity) * 1000;

  profile.samples.forEach((nodeId, index) => {
    // A sample's delta is the time until the next one: attribute it to this sample.
    const deltaUs = profile.timeDeltas[index + 1] ?? 0;
    elapsedUs += profile.timeDeltas[index] ?? 0;
    if (elapsedUs < fromUs || elapsedUs > toUs) return;
    const node = byId.get(nodeId)!;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idleUs += deltaUs;
      return;
    }
    counted += 1;
    busyUs += deltaUs;
    const name = SPECIAL.has(functionName)
      ? functionName
      : `${functionName || '(anonymous)'} ${url ? `${shortUrl(url)}:${lineNumber + 1}` : '(native)'}`;
    selfByFunction.set(name, (selfByFunction.get(name) ?? 0) + deltaUs);
    const pkg = SPECIAL.has(functionName) ? functionName : packageOf(url);
    selfByPackage.set(pkg, (selfByPackage.get(pkg) ?? 0) + deltaUs);

    let layer = SPECIAL.has(functionName) ? functionName : undefined;
    for (let id: number | undefined = nodeId; !layer && id !== undefined; id = parentOf.get(id)) {
      const frame = byId.get(id)!.callFrame;
      if (frame.url) layer = classify(frame);
    }
    layer ??= '(native, no JS caller)';
    selfByLayer.set(layer, (selfByLayer.get(layer) ?? 0) + deltaUs);

    const hit = new Set<string>();
    for (let id: number | undefined = nodeId; id !== undefined; id = parentOf.get(id)) {
      const frame = byId.get(id)!.callFrame;
      for (const group of groups)
        if (!hit.has(group.name) && group.matches(frame)) hit.add(group.name);
    }
    for (const group of hit) inclusive.set(group, (inclusive.get(group) ?? 0) + deltaUs);
  });

  const entries = (map: Map<string, number>, top = Infinity): ProfileEntry[] =>
    [...map.entries()]
      .toSorted((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: us / 1000, share: busyUs > 0 ? us / busyUs : 0 }));

  return {
    busyMs: busyUs / 1000,
    idleMs: idleUs / 1000,
    samples: counted,
    selfByFunction: entries(selfByFunction, options.top ?? 25),
    selfByPackage: entries(selfByPackage),
    selfByLayer: entries(selfByLayer),
    inclusiveByGroup: groups
      .map((group) => group.name)
      .map((name) => ({
        name,
        ms: (inclusive.get(name) ?? 0) / 1000,
        share: busyUs > 0 ? (inclusive.get(name) ?? 0) / busyUs : 0,
      })),
  };
}
