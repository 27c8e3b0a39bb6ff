import type * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { endpointsOf } from '../../src/contract/endpoints.js';
import { EVENT_DATA_MARKS, EVENT_MARKS, eventDataSchema } from '../../src/contract/event-fields.js';
import { isRequired, objectOf, RECORD_MARKS, type FieldMarks } from '../../src/contract/fields.js';
import { WEBHOOK_EVENT_KINDS } from '../../src/schemas/event-kinds.js';

const shapeOf = (schema: z.ZodMiniType) =>
  (schema._zod.def as unknown as { shape: Record<string, z.ZodMiniType> }).shape;
const required = (schema: z.ZodMiniType) =>
  Object.entries(shapeOf(schema))
    .filter(([, field]) => field._zod.optin !== 'optional')
    .map(([name]) => name)
    .sort();

/** Each marked object: its fields are the schema's, and a field is required in the types exactly when it is shown (always there) or promised. */
function expectSchemasFollow(marks: FieldMarks): void {
  for (const [schema, fields] of marks) {
    expect(Object.keys(fields).sort()).toEqual(Object.keys(shapeOf(schema)).sort());
    const markedRequired = Object.entries(fields)
      .filter(([, mark]) => isRequired(mark))
      .map(([name]) => name)
      .sort();
    expect(required(schema), Object.keys(fields).join()).toEqual(markedRequired);
  }
}

describe('the marks of contract/ (shown by the spec, or guessed)', () => {
  it("are followed by the answers' schemas: a guessed field is optional in the types", () => {
    expectSchemasFollow(RECORD_MARKS);
  });

  it("are followed by the events' schemas: only message.delivered's four fields and the envelope are required", () => {
    expectSchemasFollow(EVENT_MARKS);
    const requiredData = WEBHOOK_EVENT_KINDS.filter((kind) => required(eventDataSchema(kind)).length > 0);
    expect(requiredData).toEqual(['message.delivered']);
    expect(required(eventDataSchema('message.delivered'))).toEqual(['delivered_at', 'message_id', 'status', 'to']);
    expect(Object.entries(EVENT_DATA_MARKS['message.delivered']).filter(([, mark]) => mark === 'shown')).toHaveLength(
      4,
    );
  });

  it('cover every answer an endpoint of either variant gives', () => {
    for (const variant of [1, 2] as const) {
      for (const endpoint of endpointsOf(variant)) {
        expect(RECORD_MARKS.has(objectOf(endpoint.payload)), endpoint.operationId).toBe(true);
      }
    }
  });
});
