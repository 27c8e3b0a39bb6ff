// The mock's seeded randomness: generated keys and sampled faults repeat for a given seed.

/** A small seeded PRNG (mulberry32) that can start its sequence over. */
export class SeededRandom {
  readonly #seed: number;
  #state: number;

  constructor(seed: number) {
    this.#seed = seed >>> 0;
    this.#state = this.#seed;
  }

  /** The next number in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Starts the sequence over, as at construction. */
  restart(): void {
    this.#state = this.#seed;
  }
}

/** A function giving the numbers of `new SeededRandom(seed)`, one per call. */
export function seededRandom(seed: number): () => number {
  const random = new SeededRandom(seed);
  return () => random.next();
}
