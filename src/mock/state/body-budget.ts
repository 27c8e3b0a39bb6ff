// The bytes of the bodies the webhook dispatcher holds for later (deliveries waiting for a retry),
// counted per endpoint against one bound, so that big events to failing endpoints cannot fill the
// memory: each retry keeps its body whole, since it must send those exact signed bytes again.

/** Bytes held by each holder, against one bound for all of them (counted as `bytesOf` counts them). */
export class BodyBudget<Holder> {
  /** The most bytes all holders may hold together. */
  readonly max: number;
  readonly #held = new Map<Holder, number>();
  #total = 0;

  constructor(max: number) {
    this.max = max;
  }

  /** Whether `bytes` more fit within the bound. */
  fits(bytes: number): boolean {
    return this.#total + bytes <= this.max;
  }

  /** How many bytes `holder` holds. */
  heldBy(holder: Holder): number {
    return this.#held.get(holder) ?? 0;
  }

  /** The holder that holds the most, if any holds anything. */
  largest(): Holder | undefined {
    let largest: Holder | undefined;
    for (const [holder, bytes] of this.#held)
      if (largest === undefined || bytes > this.heldBy(largest)) largest = holder;
    return largest;
  }

  /** `holder` holds `bytes` more. */
  hold(holder: Holder, bytes: number): void {
    this.#held.set(holder, this.heldBy(holder) + bytes);
    this.#total += bytes;
  }

  /** `holder` lets go of `bytes` it held (never of more than it holds). */
  release(holder: Holder, bytes: number): void {
    const held = this.heldBy(holder);
    const freed = Math.min(bytes, held);
    if (held > freed) this.#held.set(holder, held - freed);
    else this.#held.delete(holder);
    this.#total -= freed;
  }

  /** `holder` lets go of all it held. */
  releaseAll(holder: Holder): void {
    this.#total -= this.heldBy(holder);
    this.#held.delete(holder);
  }

  /** Nothing is held any more. */
  clear(): void {
    this.#held.clear();
    this.#total = 0;
  }
}
