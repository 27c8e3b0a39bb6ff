// The record types' JSDoc follows the marks of contract/fields.ts, the one home of what the spec
// shows: a field the spec does not show says "guessed: may be missing" where the type lets it be
// missing, and why it is always there where the type requires it; a field the spec shows says neither.
import { describe, expect, it } from 'vitest';
import type { ZodMiniType } from 'zod/mini';
import { objectOf, RECORD_MARKS } from '../../src/contract/fields.js';
import { AccountSchema } from '../../src/schemas/account.js';
import { AutomationExecutionSchema } from '../../src/schemas/automation.js';
import { CampaignSchema } from '../../src/schemas/campaign.js';
import { ListMetaSchema } from '../../src/schemas/common.js';
import { ContactSchema, DeleteResultSchema } from '../../src/schemas/contact.js';
import { ConversationSchema, ConversationWithMessagesSchema } from '../../src/schemas/conversation.js';
import { MessageSchema } from '../../src/schemas/message.js';
import { WebhookEndpointSchema } from '../../src/schemas/webhook-endpoint.js';
import { declaredInterfaces } from '../helpers/interface-members.js';

/** Each marked record: its schema, its interface and the file that declares both. */
const RECORDS: ReadonlyArray<readonly [ZodMiniType, string, string]> = [
  [ListMetaSchema, 'ListMeta', 'common.ts'],
  [AccountSchema, 'Account', 'account.ts'],
  [ContactSchema, 'Contact', 'contact.ts'],
  [DeleteResultSchema, 'DeleteResult', 'contact.ts'],
  [MessageSchema, 'Message', 'message.ts'],
  [ConversationSchema, 'Conversation', 'conversation.ts'],
  [ConversationWithMessagesSchema, 'ConversationWithMessages', 'conversation.ts'],
  [CampaignSchema, 'Campaign', 'campaign.ts'],
  [WebhookEndpointSchema, 'WebhookEndpoint', 'webhook-endpoint.ts'],
  [AutomationExecutionSchema, 'AutomationExecution', 'automation.ts'],
];

/** The fields of interface `name` in `file` of src/schemas/, with those of the interfaces it extends there. */
const membersOf = (file: string, name: string) =>
  declaredInterfaces(new URL(`../../src/schemas/${file}`, import.meta.url)).membersOf(name);

describe("the record types' JSDoc", () => {
  it.each(RECORDS.map(([schema, name, file]) => ({ schema, name, file })))(
    '$name: one line per field, saying what contract/fields.ts marks',
    ({ schema, name, file }) => {
      const marks = RECORD_MARKS.get(objectOf(schema));
      expect(marks, name).toBeDefined();
      const members = membersOf(file, name);
      expect([...members.keys()].sort()).toEqual(Object.keys(marks!).sort());
      for (const [field, { optional, doc }] of members) {
        const mark = marks![field]!;
        const where = `${name}.${field} (${mark}): ${doc}`;
        expect(doc, where).toMatch(/^\/\*\* .+ \*\/$/);
        expect(doc, where).not.toContain('\n');
        if (mark.startsWith('shown')) expect(doc, where).not.toMatch(/guessed|not shown/);
        else if (optional) expect(doc, where).toContain('(guessed: may be missing)');
        else expect(doc, where).toMatch(/not shown by the spec.*always there/);
      }
    },
  );
});
