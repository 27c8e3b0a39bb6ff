// The webhook event types' JSDoc follows the marks of contract/event-fields.ts, the one home of what
// the spec shows: a field of `data` the spec does not show says "guessed: may be missing"; one the
// spec shows (message.delivered's four, every envelope field) does not.
import { describe, expect, it } from 'vitest';
import { EVENT_DATA_MARKS, EVENT_MARKS, EVENT_SCHEMAS } from '../../src/contract/event-fields.js';
import { objectOf } from '../../src/contract/fields.js';
import { WEBHOOK_EVENT_KINDS, type WebhookEventKind } from '../../src/schemas/event-kinds.js';
import { declaredInterfaces } from '../helpers/interface-members.js';

const { names, membersOf } = declaredInterfaces(new URL('../../src/schemas/webhook-event.ts', import.meta.url));

/** `message.delivered` -> `MessageDeliveredEvent`. */
const eventInterface = (kind: WebhookEventKind) =>
  `${kind
    .split('.')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('')}Event`;

function expectDocumented(where: string, doc: string): void {
  expect(doc, where).toMatch(/^\/\*\* .+ \*\/$/);
  expect(doc, where).not.toContain('\n');
}

describe("the event types' JSDoc", () => {
  it.each(WEBHOOK_EVENT_KINDS.map((kind) => ({ kind, name: eventInterface(kind) })))(
    '$name: one line per field, its data saying what contract/event-fields.ts marks',
    ({ kind, name }) => {
      const envelope = membersOf(name);
      const envelopeMarks = EVENT_MARKS.get(objectOf(EVENT_SCHEMAS.get(kind)!))!;
      expect([...envelope.keys()].sort()).toEqual(Object.keys(envelopeMarks).sort());
      for (const [field, { doc }] of envelope) {
        expectDocumented(`${name}.${field}`, doc);
        expect(envelopeMarks[field], field).toBe('shown');
        expect(doc, `${name}.${field}`).not.toContain('guessed');
      }
      const dataName = envelope.get('data')!.type;
      const marks = EVENT_DATA_MARKS[kind];
      const data = membersOf(dataName);
      expect([...data.keys()].sort(), dataName).toEqual(Object.keys(marks).sort());
      for (const [field, { doc }] of data) {
        const mark = marks[field]!;
        const where = `${dataName}.${field} (${kind}: ${mark}): ${doc}`;
        expectDocumented(where, doc);
        if (mark.startsWith('shown')) expect(doc, where).not.toContain('guessed');
        else expect(doc, where).toContain('(guessed: may be missing)');
      }
    },
  );

  it('documents every field of every interface, in one line', () => {
    for (const name of names) {
      for (const [field, { doc }] of membersOf(name)) expectDocumented(`${name}.${field}`, doc);
    }
  });
});
