// The base of every error this package throws, shared by all entries (bizmsg, bizmsg/webhooks,
// bizmsg/mock, bizmsg/redis), so that one `catch` and one brand check cover them all.

/**
 * Brand shared by every copy of the package (ESM, CJS, two versions in one tree), so that
 * `instanceof` and `X.is()` work on an error thrown by another copy.
 */
const KINDS = Symbol.for('bizmsg.error.kinds');

/** A class in the chain from a concrete error class up to `Error`. */
type ErrorClass = abstract new (...args: never[]) => Error;

/** Base class of every error this package throws. */
export class BizMsgError extends Error {
  /**
   * @internal The `name` of every class this error is an instance of, most general first. Left out
   * of the declarations: a user's declaration emit of a spread error could not name the symbol.
   */
  declare readonly [KINDS]: readonly string[];

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    const kinds: string[] = [];
    for (let c: ErrorClass = new.target; c !== Error; c = Object.getPrototypeOf(c) as ErrorClass) {
      kinds.unshift((c.prototype as Error).name);
    }
    Object.defineProperty(this, KINDS, { value: Object.freeze(kinds) });
  }

  /** The class's name, e.g. `"ValidationError"`; it is also what `instanceof` and `is()` compare. */
  override get name(): string {
    return 'BizMsgError';
  }

  /** True when `value` is an instance of this class, from any copy of the package. */
  static is<T extends abstract new (...args: never[]) => BizMsgError>(
    this: T,
    value: unknown,
  ): value is InstanceType<T> {
    return hasKind(value, (this as unknown as typeof BizMsgError).prototype.name);
  }

  /** Makes `instanceof` work across two copies of the package (ESM and CJS, or two versions). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasKind(value, this.prototype.name);
  }

  /** A plain object for logs and JSON: everything but the stack. */
  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message };
  }
}

function hasKind(value: unknown, kind: string): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const kinds = (value as { [KINDS]?: unknown })[KINDS];
  return Array.isArray(kinds) && kinds.includes(kind);
}

/** An argument or option is invalid: a programming error, found before anything was sent or changed. */
export class InvalidArgumentError extends BizMsgError {
  override get name(): string {
    return 'InvalidArgumentError';
  }
}
