import { cancelByClosing, legacyTask, modernTask, session } from './soak-flows.js';
import {
  builderOf,
  OperationStopped,
  refusedCaller,
  STEPS,
  type SoakClient,
} from './soak-steps.js';

// The soak's mix (bench/soak.ts): the operations a virtual client picks from, by weight.

type Operation = (client: SoakClient) => Promise<void>;

const each = (era: 'modern' | 'legacy', weights: Record<string, number>): MixEntry[] =>
  Object.entries(weights).map(([name, weight]) => ({
    name: `${era} ${name}`,
    weight,
    run: (client) => STEPS[name]!(client, builderOf(client, era), era),
  }));

const WEIGHTS = {
  'call add_numbers': 12,
  'call lookup_item': 6,
  'invalid arguments': 5,
  'refused by a tool guard': 2,
  'admin call': 1,
  'tools/list': 4,
  'prompts/get': 3,
  'resources/read': 3,
  'call with progress': 2,
};

/** An operation of the mix; its weight is its share of the operations started. */
export interface MixEntry {
  name: string;
  weight: number;
  run: Operation;
}

export const OPERATIONS: MixEntry[] = [
  ...each('modern', WEIGHTS),
  ...each('legacy', WEIGHTS),
  { name: 'modern refused caller', weight: 2, run: (client) => refusedCaller(client, 'modern') },
  { name: 'legacy refused caller', weight: 2, run: (client) => refusedCaller(client, 'legacy') },
  {
    name: 'modern cancel',
    weight: 1,
    run: (client) => cancelByClosing(client, builderOf(client, 'modern'), 'modern'),
  },
  {
    name: 'modern task',
    weight: 1,
    run: (client) => modernTask(client, builderOf(client, 'modern')),
  },
  {
    name: 'legacy task',
    weight: 1,
    run: (client) => legacyTask(client, builderOf(client, 'legacy')),
  },
  { name: 'session', weight: 2, run: session },
];

/** Picks operations by weight from `mix` (all of OPERATIONS, or those `--only` names). */
export class SoakMix {
  private readonly total: number;

  constructor(private readonly entries: readonly MixEntry[]) {
    if (entries.length === 0) throw new Error('the mix is empty: --only names no operation');
    this.total = entries.reduce((sum, entry) => sum + entry.weight, 0);
  }

  /** Runs one operation picked by weight; a failed request ends it (already counted). */
  async runOne(client: SoakClient): Promise<void> {
    let pick = client.random() * this.total;
    const entry = this.entries.find(({ weight }) => (pick -= weight) < 0) ?? this.entries[0]!;
    await runStopping(entry.run, client);
  }

  /** Every operation once, in order (the probe before the soak). */
  async runEach(client: SoakClient): Promise<void> {
    for (const entry of this.entries) await runStopping(entry.run, client);
  }
}

async function runStopping(operation: Operation, client: SoakClient): Promise<void> {
  try {
    await operation(client);
  } catch (error) {
    if (!(error instanceof OperationStopped)) throw error;
  }
}
