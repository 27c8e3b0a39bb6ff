// The control API's routes under /_bizmsg/: one per operation of the MockService's table (what each
// takes and gives, and the handler it runs), and the activity stream. The HTTP handler serves them
// and the control API's OpenAPI document is generated from them.
import type * as z from 'zod/mini';
import { argsOf, MOCK_OPERATIONS, runOn, type ControlInput, type MockOperation } from '../operations.js';
import type { MockService } from '../service.js';
import { activityStream, StreamActivitySchema } from './stream.js';

export type { ControlInput } from '../operations.js';

/** Where the control API lives on the mock's origin. */
export const CONTROL_PREFIX = '/_bizmsg';

/** One route of the control API, run on `T` (the mock; a proxy or replay of the real service for theirs). */
export interface ControlRoute<T = MockService> extends Omit<
  MockOperation,
  'name' | 'operationId' | 'run' | 'argsOf' | 'callOf' | 'answer' | 'resultOf' | 'revive'
> {
  readonly operationId: string;
  /**
   * The data of each event, when the route answers Server-Sent Events (`text/event-stream`) instead
   * of JSON: its `run` gives the `EventStream`.
   */
  readonly events?: z.ZodMiniType;
  run(target: T, input: ControlInput): unknown;
}

/** The route of one operation: its arguments from the checked request, the handler, its answer. */
function routeOf(op: MockOperation): ControlRoute {
  const {
    name,
    operationId = name,
    run: _run,
    argsOf: _args,
    callOf: _call,
    answer,
    resultOf: _result,
    revive: _revive,
    ...route
  } = op;
  return {
    ...route,
    operationId,
    run: (mock, input) => {
      const result = runOn(mock, op, argsOf(op, input));
      return answer === undefined ? result : Promise.resolve(result).then((value) => answer(value, mock));
    },
  };
}

const STREAM: ControlRoute = {
  method: 'GET',
  path: '/_bizmsg/stream',
  operationId: 'stream',
  summary:
    'What the mock does from now on, as Server-Sent Events: `ready` at once, then `activity` (requests, deliveries and changes counted) at most every 100 ms',
  events: StreamActivitySchema,
  status: 200,
  run: (mock) => activityStream(mock),
};

/** Every route of the control API, but its own document (served by the handler): the stream after the reads. */
export const CONTROL_ROUTES: readonly ControlRoute[] = MOCK_OPERATIONS.flatMap((op) =>
  op.name === 'deliveries' ? [routeOf(op), STREAM] : [routeOf(op)],
);
