// The endpoint table: every endpoint of each variant, the one description the mock's routes, the OpenAPI documents and the contract tests share.
import type { ZodMiniType } from 'zod/mini';
import { AutomationTriggerSchema } from '../schemas/automation-params.js';
import { CampaignCreateSchema } from '../schemas/campaign-params.js';
import { ContactCreateSchema, ContactUpdateSchema } from '../schemas/contact-params.js';
import { CONVERSATION_STATUSES } from '../schemas/conversation.js';
import type { ErrorCode } from './error-codes.js';
import { COMMON_ROUTES, VARIANT1_ROUTES, VARIANT2_ROUTES, type Route } from './routes.js';
import type { Variant } from './variant.js';
import {
  Variant2SendMessageSchema,
  Variant1SendTemplateSchema,
  Variant1SendTextSchema,
} from '../schemas/message-params.js';
import type { Scope } from './scopes.js';
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
export interface Endpoint extends Route {
  /** OpenAPI operationId. */
  readonly operationId: string;
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
  ...COMMON_ROUTES.getContact,
  operationId: 'getContact',
  scope: 'contacts:read',
  summary: 'Get a contact',
  clientMethod: 'contacts.get',
  tag: 'Contacts',
  status: 200,
};
const updateContact: Endpoint = {
  ...COMMON_ROUTES.updateContact,
  operationId: 'updateContact',
  scope: 'contacts:write',
  summary: 'Update some fields of a contact',
  clientMethod: 'contacts.update',
  tag: 'Contacts',
  status: 200,
  body: ContactUpdateSchema,
  errors: ['INVALID_PHONE'],
};
const getAccount: Endpoint = {
  ...COMMON_ROUTES.getAccount,
  operationId: 'getAccount',
  scope: 'account:read',
  summary: 'Account information of the key',
  clientMethod: 'account.me',
  tag: 'Account',
  status: 200,
};

/** The endpoints of Variant 1 (spec section 4). */
export const VARIANT1_ENDPOINTS = {
  sendMessage: {
    ...VARIANT1_ROUTES.sendMessage,
    operationId: 'sendMessage',
    scope: 'messages:send',
    summary: 'Send a text message',
    clientMethod: 'messages.send',
    tag: 'Messages',
    status: 200,
    body: Variant1SendTextSchema,
    errors: ['INVALID_PHONE', 'PLAN_LIMIT_EXCEEDED', 'MESSAGING_ERROR'],
  },
  sendTemplateMessage: {
    ...VARIANT1_ROUTES.sendTemplateMessage,
    operationId: 'sendTemplateMessage',
    scope: 'messages:send',
    summary: 'Send a template message (body not shown in the spec: bizmsg sends { to, name, language, components })',
    clientMethod: 'messages.sendTemplate',
    tag: 'Messages',
    status: 200,
    body: Variant1SendTemplateSchema,
    errors: ['INVALID_PHONE', 'TEMPLATE_NOT_FOUND', 'PLAN_LIMIT_EXCEEDED', 'MESSAGING_ERROR'],
  },
  getMessageStatus: {
    ...VARIANT1_ROUTES.getMessageStatus,
    operationId: 'getMessageStatus',
    scope: 'messages:read',
    summary: 'Delivery status of a message',
    clientMethod: 'messages.status',
    tag: 'Messages',
    status: 200,
  },
  listContacts: {
    ...VARIANT1_ROUTES.listContacts,
    operationId: 'listContacts',
    scope: 'contacts:read',
    summary: 'List contacts, page by page',
    clientMethod: 'contacts.list',
    tag: 'Contacts',
    status: 200,
    query: pagination,
  },
  createContact: {
    ...VARIANT1_ROUTES.createContact,
    operationId: 'createContact',
    scope: 'contacts:write',
    summary: 'Create a contact',
    clientMethod: 'contacts.create',
    tag: 'Contacts',
    status: 200,
    body: ContactCreateSchema,
    errors: ['INVALID_PHONE', 'PLAN_LIMIT_EXCEEDED'],
  },
  getContact,
  updateContact,
  triggerAutomation: {
    ...VARIANT1_ROUTES.triggerAutomation,
    operationId: 'triggerAutomation',
    scope: 'automations:trigger',
    summary:
      'Trigger an automation flow (body not shown in the spec: bizmsg sends { automation_id, to?, contact_id?, data? })',
    clientMethod: 'automations.trigger',
    tag: 'Automations',
    status: 200,
    body: AutomationTriggerSchema,
    errors: ['RESOURCE_NOT_FOUND'],
  },
  getAccount,
} as const satisfies Record<string, Endpoint>;

/** The endpoints of Variant 2 (spec section 4, and `GET /account/me` of section 2). */
export const VARIANT2_ENDPOINTS = {
  listContacts: {
    ...VARIANT2_ROUTES.listContacts,
    operationId: 'listContacts',
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
  },
  createContact: {
    ...VARIANT2_ROUTES.createContact,
    operationId: 'createContact',
    scope: 'contacts:write',
    summary: 'Create a contact',
    clientMethod: 'contacts.create',
    tag: 'Contacts',
    status: 201,
    body: ContactCreateSchema,
    errors: ['INVALID_PHONE', 'PLAN_LIMIT_EXCEEDED'],
  },
  getContact,
  updateContact,
  deleteContact: {
    ...VARIANT2_ROUTES.deleteContact,
    operationId: 'deleteContact',
    scope: 'contacts:write',
    summary: 'Delete a contact',
    clientMethod: 'contacts.delete',
    tag: 'Contacts',
    status: 200,
  },
  sendMessage: {
    ...VARIANT2_ROUTES.sendMessage,
    operationId: 'sendMessage',
    scope: 'messages:send',
    summary: 'Send a text or template message',
    clientMethod: 'messages.send',
    tag: 'Messages',
    status: 200,
    body: Variant2SendMessageSchema,
    errors: ['INVALID_PHONE', 'TEMPLATE_NOT_FOUND', 'PLAN_LIMIT_EXCEEDED', 'MESSAGING_ERROR'],
  },
  listConversations: {
    ...VARIANT2_ROUTES.listConversations,
    operationId: 'listConversations',
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
  },
  getConversation: {
    ...VARIANT2_ROUTES.getConversation,
    operationId: 'getConversation',
    scope: 'messages:read',
    summary: 'A conversation with its messages',
    clientMethod: 'conversations.get',
    tag: 'Conversations',
    status: 200,
  },
  listCampaigns: {
    ...VARIANT2_ROUTES.listCampaigns,
    operationId: 'listCampaigns',
    scope: 'messages:read',
    summary: 'List campaigns',
    clientMethod: 'campaigns.list',
    tag: 'Campaigns',
    status: 200,
    query: pagination,
  },
  createCampaign: {
    ...VARIANT2_ROUTES.createCampaign,
    operationId: 'createCampaign',
    scope: 'messages:send',
    summary: 'Schedule a campaign: a template sent to a segment at scheduled_at',
    clientMethod: 'campaigns.create',
    tag: 'Campaigns',
    status: 201,
    body: CampaignCreateSchema,
    errors: ['TEMPLATE_NOT_FOUND'],
  },
  listWebhooks: {
    ...VARIANT2_ROUTES.listWebhooks,
    operationId: 'listWebhooks',
    scope: 'webhooks:manage',
    summary: 'List registered webhook endpoints',
    clientMethod: 'webhooks.list',
    tag: 'Webhooks',
    status: 200,
    query: pagination,
  },
  createWebhook: {
    ...VARIANT2_ROUTES.createWebhook,
    operationId: 'createWebhook',
    scope: 'webhooks:manage',
    summary: 'Register a webhook endpoint',
    clientMethod: 'webhooks.create',
    tag: 'Webhooks',
    status: 201,
    body: WebhookEndpointCreateSchema,
    errors: ['PLAN_LIMIT_EXCEEDED'],
  },
  getAccount,
} as const satisfies Record<string, Endpoint>;

/** The endpoints of a variant. */
export function endpointsOf(variant: Variant): readonly Endpoint[] {
  return Object.values<Endpoint>(variant === 1 ? VARIANT1_ENDPOINTS : VARIANT2_ENDPOINTS);
}
