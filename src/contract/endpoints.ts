// The endpoint table: every endpoint of each variant, the one description the mock's routes, the OpenAPI documents and the contract tests share.
import type { ZodMiniType } from 'zod/mini';
import { AccountSchema } from '../schemas/account.js';
import { AutomationRunSchema } from '../schemas/automation.js';
import { AutomationTriggerSchema } from '../schemas/automation-params.js';
import { CampaignSchema } from '../schemas/campaign.js';
import { CampaignCreateSchema } from '../schemas/campaign-params.js';
import { ContactSchema, DeleteResultSchema } from '../schemas/contact.js';
import { ContactCreateSchema, ContactUpdateSchema } from '../schemas/contact-params.js';
import { CONVERSATION_STATUSES, ConversationSchema, ConversationWithMessagesSchema } from '../schemas/conversation.js';
import type { ErrorCode } from './error-codes.js';
import type { Variant } from './variant.js';
import { MessageSchema } from '../schemas/message.js';
import {
  Variant2SendMessageSchema,
  Variant1SendTemplateSchema,
  Variant1SendTextSchema,
} from '../schemas/message-params.js';
import type { Scope } from './scopes.js';
import { WebhookEndpointSchema } from '../schemas/webhook-endpoint.js';
import { WebhookEndpointCreateSchema } from '../schemas/webhook-endpoint-params.js';
import { PAGE_SIZE } from './limits.js';

/** A JSON Schema, as a plain object. */
export type JsonSchema = Record<string, unknown>;

/** A query parameter of an endpoint. */
export interface QueryParameter {
  readonly name: string;
  readonly description: string;
  readonly schema: JsonSchema;
}

/** One endpoint of a variant: the one description the mock routes, the OpenAPI documents and the contract tests share. */
export interface Endpoint {
  /** OpenAPI operationId. */
  readonly operationId: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path below the base URL, with `{name}` parameters. */
  readonly path: string;
  /** The scope a key needs (design.md "Scope to endpoint"). */
  readonly scope: Scope;
  readonly summary: string;
  /** The client method that calls it, e.g. `contacts.list`. */
  readonly clientMethod: string;
  readonly tag: string;
  /** Status of a success. */
  readonly status: 200 | 201;
  /** Schema of the JSON request body, if it takes one. */
  readonly body?: ZodMiniType;
  readonly query?: readonly QueryParameter[];
  /** Schema of the payload the envelope carries, as the client parses it (for a list: one item). */
  readonly payload: ZodMiniType;
  /** A list: the payload is an array of `payload` items, with pagination `meta`. */
  readonly list?: true;
  /** Codes it answers with beyond those that follow from its shape (see `errorCodesOf`). */
  readonly errors?: readonly ErrorCode[];
}

/** Codes every endpoint may answer with: authentication, scope, rate limit, a failure of the service. */
const EVERY_ENDPOINT: readonly ErrorCode[] = [
  'AUTHENTICATION_ERROR',
  'KEY_REVOKED',
  'INSUFFICIENT_PERMISSIONS',
  'RATE_LIMIT_EXCEEDED',
  'INTERNAL_ERROR',
];

/**
 * Every code `endpoint` may answer with: those of every endpoint, VALIDATION_ERROR where it
 * reads a body or a query, PAYLOAD_TOO_LARGE where it reads a body, RESOURCE_NOT_FOUND where
 * its path names a resource, and its own.
 */
export function errorCodesOf(endpoint: Endpoint): ErrorCode[] {
  const codes = new Set<ErrorCode>(EVERY_ENDPOINT);
  if (endpoint.body !== undefined || endpoint.query !== undefined) codes.add('VALIDATION_ERROR');
  if (endpoint.body !== undefined) codes.add('PAYLOAD_TOO_LARGE');
  if (endpoint.path.includes('{')) codes.add('RESOURCE_NOT_FOUND');
  for (const code of endpoint.errors ?? []) codes.add(code);
  return [...codes];
}

const page: QueryParameter = {
  name: 'page',
  description: 'Page number, from 1.',
  schema: { type: 'integer', minimum: 1, default: 1 },
};
const perPage: QueryParameter = {
  name: 'per_page',
  description: `Items per page (not shown in the spec: bizmsg serves ${PAGE_SIZE.default} by default and at most ${PAGE_SIZE.max}).`,
  schema: { type: 'integer', minimum: 1, maximum: PAGE_SIZE.max, default: PAGE_SIZE.default },
};
const pagination = [page, perPage] as const;

const getContact: Endpoint = {
  operationId: 'getContact',
  method: 'GET',
  path: '/contacts/{id}',
  scope: 'contacts:read',
  summary: 'Get a contact',
  clientMethod: 'contacts.get',
  tag: 'Contacts',
  status: 200,
  payload: ContactSchema,
};
const updateContact: Endpoint = {
  operationId: 'updateContact',
  method: 'PUT',
  path: '/contacts/{id}',
  scope: 'contacts:write',
  summary: 'Update some fields of a contact',
  clientMethod: 'contacts.update',
  tag: 'Contacts',
  status: 200,
  body: ContactUpdateSchema,
  payload: ContactSchema,
  errors: ['INVALID_PHONE'],
};
const getAccount: Endpoint = {
  operationId: 'getAccount',
  method: 'GET',
  path: '/account/me',
  scope: 'account:read',
  summary: 'Account information of the key',
  clientMethod: 'account.me',
  tag: 'Account',
  status: 200,
  payload: AccountSchema,
};

/** The endpoints of Variant 1 (spec section 4). */
export const VARIANT1_ENDPOINTS = {
  sendMessage: {
    operationId: 'sendMessage',
    method: 'POST',
    path: '/messages/send',
    scope: 'messages:send',
    summary: 'Send a text message',
    clientMethod: 'messages.send',
    tag: 'Messages',
    status: 200,
    body: Variant1SendTextSchema,
    payload: MessageSchema,
    errors: ['INVALID_PHONE', 'PLAN_LIMIT_EXCEEDED', 'MESSAGING_ERROR'],
  },
  sendTemplateMessage: {
    operationId: 'sendTemplateMessage',
    method: 'POST',
    path: '/messages/template',
    scope: 'messages:send',
    summary: 'Send a template message (body not shown in the spec: bizmsg sends { to, name, language, components })',
    clientMethod: 'messages.sendTemplate',
    tag: 'Messages',
    status: 200,
    body: Variant1SendTemplateSchema,
    payload: MessageSchema,
    errors: ['INVALID_PHONE', 'TEMPLATE_NOT_FOUND', 'PLAN_LIMIT_EXCEEDED', 'MESSAGING_ERROR'],
  },
  getMessageStatus: {
    operationId: 'getMessageStatus',
    method: 'GET',
    path: '/messages/{id}/status',
    scope: 'messages:read',
    summary: 'Delivery status of a message',
    clientMethod: 'messages.status',
    tag: 'Messages',
    status: 200,
    payload: MessageSchema,
  },
  listContacts: {
    operationId: 'listContacts',
    method: 'GET',
    path: '/contacts',
    scope: 'contacts:read',
    summary: 'List contacts, page by page',
    clientMethod: 'contacts.list',
    tag: 'Contacts',
    status: 200,
    query: pagination,
    payload: ContactSchema,
    list: true,
  },
  createContact: {
    operationId: 'createContact',
    method: 'POST',
    path: '/contacts/create',
    scope: 'contacts:write',
    summary: 'Create a contact',
    clientMethod: 'contacts.create',
    tag: 'Contacts',
    status: 200,
    body: ContactCreateSchema,
    payload: ContactSchema,
    errors: ['INVALID_PHONE', 'PLAN_LIMIT_EXCEEDED'],
  },
  getContact,
  updateContact,
  triggerAutomation: {
    operationId: 'triggerAutomation',
    method: 'POST',
    path: '/automations/trigger',
    scope: 'automations:trigger',
    summary:
      'Trigger an automation flow (body not shown in the spec: bizmsg sends { automation_id, to?, contact_id?, data? })',
    clientMethod: 'automations.trigger',
    tag: 'Automations',
    status: 200,
    body: AutomationTriggerSchema,
    payload: AutomationRunSchema,
    errors: ['RESOURCE_NOT_FOUND'],
  },
  getAccount,
} as const satisfies Record<string, Endpoint>;

/** The endpoints of Variant 2 (spec section 4, and `GET /account/me` of section 2). */
export const VARIANT2_ENDPOINTS = {
  listContacts: {
    operationId: 'listContacts',
    method: 'GET',
    path: '/contacts',
    scope: 'contacts:read',
    summary: 'List contacts, page by page, optionally by search text or tag',
    clientMethod: 'contacts.list',
    tag: 'Contacts',
    status: 200,
    query: [
      ...pagination,
      {
        name: 'search',
        description: 'Only contacts whose name, phone or email contains this text (any case).',
        schema: { type: 'string' },
      },
      { name: 'tag', description: 'Only contacts carrying this tag.', schema: { type: 'string' } },
    ],
    payload: ContactSchema,
    list: true,
  },
  createContact: {
    operationId: 'createContact',
    method: 'POST',
    path: '/contacts',
    scope: 'contacts:write',
    summary: 'Create a contact',
    clientMethod: 'contacts.create',
    tag: 'Contacts',
    status: 201,
    body: ContactCreateSchema,
    payload: ContactSchema,
    errors: ['INVALID_PHONE', 'PLAN_LIMIT_EXCEEDED'],
  },
  getContact,
  updateContact,
  deleteContact: {
    operationId: 'deleteContact',
    method: 'DELETE',
    path: '/contacts/{id}',
    scope: 'contacts:write',
    summary: 'Delete a contact',
    clientMethod: 'contacts.delete',
    tag: 'Contacts',
    status: 200,
    payload: DeleteResultSchema,
  },
  sendMessage: {
    operationId: 'sendMessage',
    method: 'POST',
    path: '/messages/send',
    scope: 'messages:send',
    summary: 'Send a text or template message',
    clientMethod: 'messages.send',
    tag: 'Messages',
    status: 200,
    body: Variant2SendMessageSchema,
    payload: MessageSchema,
    errors: ['INVALID_PHONE', 'TEMPLATE_NOT_FOUND', 'PLAN_LIMIT_EXCEEDED', 'MESSAGING_ERROR'],
  },
  listConversations: {
    operationId: 'listConversations',
    method: 'GET',
    path: '/conversations',
    scope: 'messages:read',
    summary: 'List conversations, optionally by status and assignee',
    clientMethod: 'conversations.list',
    tag: 'Conversations',
    status: 200,
    query: [
      {
        name: 'status',
        description: 'Only conversations in this status.',
        schema: { type: 'string', enum: [...CONVERSATION_STATUSES] },
      },
      { name: 'assigned_to', description: 'Only conversations assigned to this assignee.', schema: { type: 'string' } },
      ...pagination,
    ],
    payload: ConversationSchema,
    list: true,
  },
  getConversation: {
    operationId: 'getConversation',
    method: 'GET',
    path: '/conversations/{id}',
    scope: 'messages:read',
    summary: 'A conversation with its messages',
    clientMethod: 'conversations.get',
    tag: 'Conversations',
    status: 200,
    payload: ConversationWithMessagesSchema,
  },
  listCampaigns: {
    operationId: 'listCampaigns',
    method: 'GET',
    path: '/campaigns',
    scope: 'messages:read',
    summary: 'List campaigns',
    clientMethod: 'campaigns.list',
    tag: 'Campaigns',
    status: 200,
    query: pagination,
    payload: CampaignSchema,
    list: true,
  },
  createCampaign: {
    operationId: 'createCampaign',
    method: 'POST',
    path: '/campaigns',
    scope: 'messages:send',
    summary: 'Schedule a campaign: a template sent to a segment at scheduled_at',
    clientMethod: 'campaigns.create',
    tag: 'Campaigns',
    status: 201,
    body: CampaignCreateSchema,
    payload: CampaignSchema,
    errors: ['TEMPLATE_NOT_FOUND'],
  },
  listWebhooks: {
    operationId: 'listWebhooks',
    method: 'GET',
    path: '/webhooks',
    scope: 'webhooks:manage',
    summary: 'List registered webhook endpoints',
    clientMethod: 'webhooks.list',
    tag: 'Webhooks',
    status: 200,
    query: pagination,
    payload: WebhookEndpointSchema,
    list: true,
  },
  createWebhook: {
    operationId: 'createWebhook',
    method: 'POST',
    path: '/webhooks',
    scope: 'webhooks:manage',
    summary: 'Register a webhook endpoint',
    clientMethod: 'webhooks.create',
    tag: 'Webhooks',
    status: 201,
    body: WebhookEndpointCreateSchema,
    payload: WebhookEndpointSchema,
    errors: ['PLAN_LIMIT_EXCEEDED'],
  },
  getAccount,
} as const satisfies Record<string, Endpoint>;

/** The endpoints of a variant. */
export function endpointsOf(variant: Variant): readonly Endpoint[] {
  return Object.values<Endpoint>(variant === 1 ? VARIANT1_ENDPOINTS : VARIANT2_ENDPOINTS);
}
