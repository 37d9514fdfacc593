import { BENCH_MODES } from './bench.config.js';
import { measureRounds, type MeasuredVariant } from './support/rounds.js';
import { ServerHandle } from './support/server-handle.js';
import { median } from './support/stats.js';
import { callRequest, type Wire } from './support/wire.js';

// Sizes two proposals of bench/README.md on the raw SDK baseline (b), interleaved as in
// the main run: the SDK's `toNodeHandler` against the leaner bridge of
// bench/experiments/lean-node-bridge.ts, and against the same handler run inside an
// AsyncLocalStorage (as nestjs-mcp's endpoint runs it). `node dist-bench/experiment.js [--rounds N]`.

const BRIDGES = ['sdk', 'sdk-als', 'lean'] as const;

async function main(): Promise<void> {
  const servers = await Promise.all(
    BRIDGES.map((bridge) => ServerHandle.start({ kind: 'raw-sdk', bridge })),
  );
  try {
    const variants: MeasuredVariant[] = (['modern', 'legacy'] as Wire[]).flatMap((wire) =>
      BRIDGES.map((bridge, index) => ({
        id: `${bridge}-${wire}`,
        label: `raw SDK, ${bridge}, ${wire === 'modern' ? '2026' : '2025'}`,
        server: servers[index]!,
        request: callRequest(wire),
      })),
    );
    const roundsAt = process.argv.indexOf('--rounds');
    const rounds = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 8;
    const samples = await measureRounds(variants, { ...BENCH_MODES.short, rounds });
    const cpu = (id: string) => median(samples.get(id)!.map((sample) => sample.cpuMsPerRequest));
    const rps = (id: string) => median(samples.get(id)!.map((sample) => sample.requestsPerSecond));
    const lines = ['', 'variant                            req/s  CPU ms/req  vs toNodeHandler'];
    for (const { id, label } of variants) {
      const base = `sdk-${id.split('-').at(-1)}`;
      lines.push(
        `${label.padEnd(32)} ${rps(id).toFixed(0).padStart(7)} ${cpu(id).toFixed(3).padStart(11)}` +
          `  ${(cpu(id) - cpu(base) >= 0 ? '+' : '') + (cpu(id) - cpu(base)).toFixed(3)} ms`,
      );
    }
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
