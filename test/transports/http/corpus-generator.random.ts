// The random source of the generated corpus (corpus-generator.ts).

/**
 * A seeded random source (splitmix32): one per (seed, index), so that any request of a
 * generated corpus is made again from those two numbers alone.
 */
export class Random {
  private state: number;

  constructor(seed: number, index: number) {
    this.state = (Math.imul(seed | 0, 0x9e3779b9) ^ Math.imul(index + 1, 0x85ebca6b)) | 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x9e3779b9) | 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** One of the entries, by weight. */
  weighted<T>(entries: ReadonlyArray<readonly [number, T]>): T {
    let roll = this.next() * entries.reduce((sum, [weight]) => sum + weight, 0);
    for (const [weight, value] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries[entries.length - 1][1];
  }
}
