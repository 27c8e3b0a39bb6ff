// Routes of contacts, both variants.
import { VARIANT1_ENDPOINTS, VARIANT2_ENDPOINTS } from '../../contract/endpoints.js';
import { ContactCreateSchema, ContactUpdateSchema } from '../../schemas/contact-params.js';
import type { MockContext } from '../context.js';
import { notFound } from '../wire/http-error.js';
import { parseBody } from '../rules/json-body.js';
import { checkPlanLimit } from '../rules/plan-limits.js';
import type { Route, RouteInput } from '../rules/router.js';
import { contactEventData } from '../state/event-data.js';
import type { StoredContact } from '../state/records.js';
import { checkPhone, pageOf, readPagination, validationError } from '../rules/validate.js';
import { phoneKey } from '../state/store.js';
import { spelledDigits } from '../../shared/phone.js';

/** Contact endpoints of a variant. */
export function contactRoutes(ctx: MockContext): Route[] {
  const endpoints = ctx.variant === 1 ? VARIANT1_ENDPOINTS : VARIANT2_ENDPOINTS;
  const routes: Route[] = [
    { endpoint: endpoints.listContacts, handle: (input) => list(ctx, input) },
    { endpoint: endpoints.createContact, handle: (input) => create(ctx, input) },
    { endpoint: endpoints.getContact, handle: ({ params }) => ({ data: find(ctx, params.id!) }) },
    { endpoint: endpoints.updateContact, handle: (input) => update(ctx, input) },
  ];
  if (ctx.variant === 2)
    routes.push({ endpoint: VARIANT2_ENDPOINTS.deleteContact, handle: ({ params }) => remove(ctx, params.id!) });
  return routes;
}

function list(ctx: MockContext, { query }: RouteInput) {
  const { page, perPage } = readPagination(query);
  const search = ctx.variant === 2 ? query.get('search') : null;
  const tag = ctx.variant === 2 ? query.get('tag') : null;
  let contacts: readonly StoredContact[] = ctx.store().contacts;
  if (search) contacts = contacts.filter(searchFor(search));
  if (tag) contacts = contacts.filter((c) => c.tags.includes(tag));
  return pageOf(contacts, page, perPage);
}

/**
 * Whether a contact matches a `search`: its name, phone or email contains the text (any case),
 * or, when the text spells (part of) a number, its number's digits contain those digits, so that
 * `+49 151 1234 5678` and `004915112345678` find a contact stored as `4915112345678` and back.
 */
function searchFor(search: string): (contact: StoredContact) => boolean {
  const text = search.toLowerCase();
  const spelled = spelledDigits(search);
  const digits = spelled.problem === undefined && spelled.digits !== '' ? spelled.digits : undefined;
  return (contact) =>
    [contact.name, contact.phone, contact.email ?? ''].some((field) => field.toLowerCase().includes(text)) ||
    (digits !== undefined && phoneKey(contact.phone).includes(digits));
}

/** VALIDATION_ERROR on `phone` when another contact has this number, in any spelling: one contact per number. */
function checkPhoneFree(ctx: MockContext, phone: string, self?: StoredContact): void {
  const holder = ctx.store().contactWith(phone);
  if (holder !== undefined && holder !== self)
    throw validationError({ phone: [`is already the number of contact ${holder.id}`] });
}

async function create(ctx: MockContext, { request, plan }: RouteInput) {
  const body = await parseBody(request, ContactCreateSchema);
  checkPhone(body.phone, 'phone');
  checkPhoneFree(ctx, body.phone);
  const store = ctx.store();
  checkPlanLimit(plan, 'maxContacts', store.contacts.length);
  const now = ctx.clock.date().toISOString();
  const contact: StoredContact = {
    id: store.nextId('contact'),
    name: body.name,
    phone: body.phone,
    ...(body.email === undefined ? {} : { email: body.email }),
    tags: body.tags ?? [],
    custom_fields: body.custom_fields ?? {},
    created_at: now,
    updated_at: now,
  };
  store.addContact(contact);
  ctx.events.emit('contact.created', contactEventData(contact));
  return { data: contact };
}

async function update(ctx: MockContext, { request, params }: RouteInput) {
  const contact = find(ctx, params.id!);
  const body = await parseBody(request, ContactUpdateSchema);
  if (body.phone !== undefined) {
    checkPhone(body.phone, 'phone');
    checkPhoneFree(ctx, body.phone, contact);
  }
  const changes = withoutUndefined(body);
  ctx.store().updateContact(contact, { ...changes, updated_at: ctx.clock.date().toISOString() });
  ctx.events.emit('contact.updated', contactEventData(contact, Object.keys(changes)));
  return { data: contact };
}

function remove(ctx: MockContext, id: string) {
  const contact = find(ctx, id);
  ctx.store().removeContact(contact);
  return { data: { id: contact.id, deleted: true } };
}

function find(ctx: MockContext, id: string): StoredContact {
  const contact = /^\d+$/.test(id) ? ctx.store().contactsById.get(Number(id)) : undefined;
  if (contact === undefined) throw notFound('Contact', id);
  return contact;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
