// How long a customer's `say` waits for the app's answer: until the deliveries of what the customer
// wrote were answered, then until no new message came for `settle` ms, `timeout` ms at most in all.
// Both are real time: an app answers on the wall clock, whatever the mock's virtual clock does.

/** What a `say` watches while it waits. */
export interface AnswerWatch {
  /** The deliveries the customer's message started (`message.received`, `conversation.created`). */
  readonly deliveries: ReadonlyArray<Promise<unknown>>;
  /** The newest message of the conversation, by id: it changes whenever a message comes. */
  newest(): string | undefined;
  /** Calls `changed` whenever the mock did something (a message may have come); returns the function that stops it. */
  watch(changed: () => void): () => void;
  /** Aborted when the mock closes: the wait ends at once, with what came. */
  readonly ended: AbortSignal;
}

/** How long to wait, in ms of real time. */
export interface AnswerBounds {
  /** How long no new message must come, once the deliveries were answered. */
  readonly settle: number;
  /** The longest the whole wait takes, the deliveries included. */
  readonly timeout: number;
}

/**
 * Resolves once the deliveries were answered (the app's work inside its webhook handler is done) and
 * then no new message came for `settle` ms (an app that answers after acknowledging has had its
 * time), or `timeout` ms passed, or the mock closed; never rejects.
 */
export function answersSettled(watch: AnswerWatch, { settle, timeout }: AnswerBounds): Promise<void> {
  return new Promise((resolve) => new AnswerWait(watch, settle, timeout, resolve).start());
}

/** One wait: a deadline, and a quiet period restarted by each new message once the deliveries were answered. */
class AnswerWait {
  readonly #watch: AnswerWatch;
  readonly #settle: number;
  readonly #timeout: number;
  readonly #resolve: () => void;
  #deadline: ReturnType<typeof setTimeout> | undefined;
  #quiet: ReturnType<typeof setTimeout> | undefined;
  #unwatch: () => void = () => undefined;
  /** The newest message when the quiet period last started; undefined until the deliveries were answered. */
  #seen: { newest: string | undefined } | undefined;
  #done = false;

  constructor(watch: AnswerWatch, settle: number, timeout: number, resolve: () => void) {
    this.#watch = watch;
    this.#settle = settle;
    this.#timeout = timeout;
    this.#resolve = resolve;
  }

  start(): void {
    if (this.#watch.ended.aborted) return this.#finish();
    this.#watch.ended.addEventListener('abort', this.#finish, { once: true });
    this.#deadline = setTimeout(this.#finish, this.#timeout);
    this.#unwatch = this.#watch.watch(() => this.#onActivity());
    void Promise.allSettled(this.#watch.deliveries).then(() => this.#startQuiet());
  }

  #onActivity(): void {
    if (this.#seen !== undefined && this.#watch.newest() !== this.#seen.newest) this.#startQuiet();
  }

  #startQuiet(): void {
    if (this.#done) return;
    this.#seen = { newest: this.#watch.newest() };
    clearTimeout(this.#quiet);
    this.#quiet = setTimeout(this.#endOfQuiet, this.#settle);
  }

  /** The quiet period passed: done, unless a message came that no activity told of. */
  readonly #endOfQuiet = (): void => {
    if (this.#watch.newest() !== this.#seen?.newest) this.#startQuiet();
    else this.#finish();
  };

  readonly #finish = (): void => {
    if (this.#done) return;
    this.#done = true;
    clearTimeout(this.#deadline);
    clearTimeout(this.#quiet);
    this.#unwatch();
    this.#watch.ended.removeEventListener('abort', this.#finish);
    this.#resolve();
  };
}
