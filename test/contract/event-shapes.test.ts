import { describe, expect, it } from 'vitest';
import { EVENT_SCHEMAS } from '../../src/contract/event-fields.js';
import { EVENT_SHAPES } from '../../src/contract/event-shapes.js';
import { shapeOfSchema } from '../../src/contract/shape.js';
import { WEBHOOK_EVENT_KINDS } from '../../src/schemas/event-kinds.js';

// The receivers check events against shapes written out from the event schemas (so that they carry
// no zod): the file must say what the schemas say. When this fails, run `npx tsx scripts/event-shapes.ts`.
describe('the event shapes the receivers check', () => {
  it('are the shapes of the event schemas, every kind', () => {
    expect(Object.keys(EVENT_SHAPES)).toEqual([...WEBHOOK_EVENT_KINDS]);
    expect(EVENT_SHAPES).toEqual(
      Object.fromEntries([...EVENT_SCHEMAS].map(([kind, schema]) => [kind, shapeOfSchema(schema)])),
    );
  });
});
