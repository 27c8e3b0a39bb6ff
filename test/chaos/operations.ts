import type { RequestOptions, TemplateComponent, Variant1Client, Variant2Client } from '../../src/index.js';
import type { MockState, StoredContact } from '../../src/mock/index.js';

/** What a chaos operation does; each carries a unique token the mock's state can be searched for. */
export type OperationKind = 'send' | 'template' | 'create' | 'update' | 'delete' | 'get' | 'list';

/** One call of a client, and how to find its effect in the mock's state afterwards. */
export interface Operation {
  readonly id: string;
  readonly kind: OperationKind;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Makes the call; `options` carries the operation header and the deadline's signal. */
  call(options: RequestOptions): Promise<unknown>;
  /** How many times the state holds this operation's effect; undefined for reads, which have none. */
  copies(state: StateIndex): number | undefined;
  /** For a read that resolved: what is wrong with the value, if anything. */
  misread(value: unknown): string | undefined;
}

/** The mock's state, indexed once by the tokens operations write. */
export interface StateIndex {
  /** Outbound messages per token (text body, or the first template parameter). */
  readonly messages: ReadonlyMap<string, number>;
  /** Contacts per name. */
  readonly contactNames: ReadonlyMap<string, number>;
  readonly contactsById: ReadonlyMap<number, StoredContact>;
}

/** Seeded contacts the operations work on: each update and delete gets its own, reads share a few. */
export interface Targets {
  /** A contact no other operation touches. */
  own(): StoredContact;
  /** A contact nothing updates or deletes. */
  stable(): StoredContact;
}

/** Recipient of every send: a valid number that is not one of the mock's magic numbers. */
const RECIPIENT = '+4915112345678';

/** A client of either variant. */
export type AnyClient = { variant: 1; client: Variant1Client } | { variant: 2; client: Variant2Client };

let createdPhones = 0;

/** The operation `kind` with id `id`, made by `caller` (its variant decides the endpoint). */
export function makeOperation(kind: OperationKind, id: string, caller: AnyClient, targets: Targets): Operation {
  const token = `chaos-${id}`;
  const none = () => undefined;
  switch (kind) {
    case 'send':
      return {
        id,
        kind,
        method: 'POST',
        call: (options) =>
          caller.variant === 1
            ? caller.client.messages.send({ to: RECIPIENT, message: token }, options)
            : caller.client.messages.sendText({ to: RECIPIENT, messaging_account_id: 1, body: token }, options),
        copies: (state) => state.messages.get(token) ?? 0,
        misread: none,
      };
    case 'template': {
      const template = {
        name: 'welcome',
        language: 'en',
        components: [{ type: 'body', parameters: [{ type: 'text', text: token }] }] satisfies TemplateComponent[],
      };
      return {
        id,
        kind,
        method: 'POST',
        call: (options) =>
          caller.variant === 1
            ? caller.client.messages.sendTemplate({ to: RECIPIENT, ...template }, options)
            : caller.client.messages.sendTemplate({ to: RECIPIENT, messaging_account_id: 1, ...template }, options),
        copies: (state) => state.messages.get(token) ?? 0,
        misread: none,
      };
    }
    case 'create': {
      const body = { name: token, phone: `+4917${String(createdPhones++).padStart(9, '0')}`, tags: ['chaos'] };
      return {
        id,
        kind,
        method: 'POST',
        call: (options) => caller.client.contacts.create(body, options),
        copies: (state) => state.contactNames.get(token) ?? 0,
        misread: none,
      };
    }
    case 'update': {
      const contact = targets.own();
      return {
        id,
        kind,
        method: 'PUT',
        call: (options) => caller.client.contacts.update(contact.id, { name: token }, options),
        copies: (state) => (state.contactsById.get(contact.id)?.name === token ? 1 : 0),
        misread: none,
      };
    }
    case 'delete': {
      if (caller.variant !== 2) throw new TypeError('Variant 1 has no contact deletion.');
      const contact = targets.own();
      return {
        id,
        kind,
        method: 'DELETE',
        call: (options) => caller.client.contacts.delete(contact.id, options),
        copies: (state) => (state.contactsById.has(contact.id) ? 0 : 1),
        misread: none,
      };
    }
    case 'get': {
      const contact = targets.stable();
      return {
        id,
        kind,
        method: 'GET',
        call: (options) => caller.client.contacts.get(contact.id, options),
        copies: none,
        misread: (value) => {
          const got = value as { id?: unknown; phone?: unknown };
          return got.id === contact.id && got.phone === contact.phone
            ? undefined
            : `asked for contact ${contact.id}, got ${JSON.stringify(value)}`;
        },
      };
    }
    case 'list':
      return {
        id,
        kind,
        method: 'GET',
        call: async (options) => (await caller.client.contacts.list({ page: 1, per_page: 20 }, options)).data,
        copies: none,
        misread: (value) =>
          Array.isArray(value) && value.length === 20
            ? undefined
            : `a page of 20 contacts expected, got ${JSON.stringify(value).slice(0, 200)}`,
      };
  }
}

/** Indexes the mock's state by the tokens operations write. */
export function indexState(state: MockState): StateIndex {
  const messages = new Map<string, number>();
  for (const message of state.messages.values()) {
    if (message.direction !== 'outbound') continue;
    const token = message.type === 'text' ? message.content.body : firstTemplateParameter(message.content);
    if (typeof token === 'string') messages.set(token, (messages.get(token) ?? 0) + 1);
  }
  const contactNames = new Map<string, number>();
  for (const contact of state.contacts) contactNames.set(contact.name, (contactNames.get(contact.name) ?? 0) + 1);
  return {
    messages,
    contactNames,
    contactsById: new Map(state.contacts.map((contact) => [contact.id, { ...contact }])),
  };
}

function firstTemplateParameter(content: Record<string, unknown>): unknown {
  const components = content.components as Array<{ parameters?: Array<{ text?: unknown }> }> | undefined;
  return components?.[0]?.parameters?.[0]?.text;
}

/** Seed contacts for the mock, and the `Targets` that hand them out once the mock has numbered them. */
export function seedContacts(owned: number, stable: number) {
  const contacts = Array.from({ length: owned + stable }, (_, i) => ({
    name: `seed-${i}`,
    phone: `+4916${String(i).padStart(9, '0')}`,
  }));
  return {
    contacts,
    targets(state: MockState): Targets {
      const byPhone = new Map(state.contacts.map((contact) => [contact.phone, contact]));
      const stored = contacts.map((contact) => byPhone.get(contact.phone)!);
      let nextOwned = 0;
      let nextStable = 0;
      return {
        own: () => {
          if (nextOwned >= owned) throw new RangeError(`Only ${owned} contacts were seeded for updates and deletes.`);
          return { ...stored[nextOwned++]! };
        },
        stable: () => ({ ...stored[owned + (nextStable++ % stable)]! }),
      };
    },
  };
}
