// The error of a call to the mock that cannot be done: a bad argument, an id that names nothing, a
// state that forbids it. In process it is an InvalidArgumentError; the control API answers it as a 400, 404 or 409.
import { fieldProblems, type ZodIssueLike } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';

/** Why a control call was refused, as the HTTP status that says it. */
export type ControlCallStatus = 400 | 404 | 409;

/** A control call refused before it changed anything; `details` maps each field at fault to what is wrong. */
export class ControlArgumentError extends InvalidArgumentError {
  // Private, behind getters: the error equals the InvalidArgumentError a test expects (`toThrow(new InvalidArgumentError(message))`).
  readonly #status: ControlCallStatus;
  readonly #details: Record<string, string[]>;

  constructor(message: string, status: ControlCallStatus, details: Record<string, string[]> = {}) {
    super(message);
    this.#status = status;
    this.#details = details;
  }

  /** 400: a value is wrong; 404: an id names nothing; 409: the mock's state forbids it. */
  get status(): ControlCallStatus {
    return this.#status;
  }

  /** Each field at fault, with what is wrong with it. */
  get details(): Record<string, string[]> {
    return this.#details;
  }

  /**
   * `error` as a refused control call, or undefined. Not `instanceof`: the package's brand check
   * goes by name, and this class keeps InvalidArgumentError's, so every InvalidArgumentError
   * would pass it.
   */
  static refused(error: unknown): ControlArgumentError | undefined {
    return typeof error === 'object' && error !== null && #status in error ? error : undefined;
  }
}

/** The error of arguments a schema refused: each field named with what is wrong with it. */
export function invalidArguments(what: string, issues: readonly ZodIssueLike[]): ControlArgumentError {
  const details = fieldProblems(issues);
  const listed = Object.entries(details).map(([field, problems]) => `${field} ${problems.join(', ')}`);
  return new ControlArgumentError(`${what}: ${listed.join('; ')}.`, 400, details);
}

/** The error of one argument that cannot work: `message` says it all, `problem` what is wrong with `field`. */
export function badArgument(field: string, problem: string, message: string): ControlArgumentError {
  return new ControlArgumentError(message, 400, { [field]: [problem] });
}

/** The error of an id that names nothing the mock keeps. */
export function unknownId(what: string, id: unknown): ControlArgumentError {
  return new ControlArgumentError(`There is no ${what} ${JSON.stringify(id)}.`, 404);
}
