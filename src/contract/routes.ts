// Each endpoint's route: its method, path and payload schema, the facts the endpoint table
// (endpoints.ts) and the clients' resource methods share; kept apart from the table so that a
// client takes them without the table's request schemas and documentation.
import type { ZodMiniType } from 'zod/mini';
import { AccountSchema } from '../schemas/account.js';
import { AutomationExecutionSchema } from '../schemas/automation.js';
import { CampaignSchema } from '../schemas/campaign.js';
import { ContactSchema, DeleteResultSchema } from '../schemas/contact.js';
import { ConversationSchema, ConversationWithMessagesSchema } from '../schemas/conversation.js';
import { MessageSchema } from '../schemas/message.js';
import { WebhookEndpointSchema } from '../schemas/webhook-endpoint.js';

/** What the endpoint table and a resource method both say of an endpoint. */
export interface Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path below the base URL, with `{name}` parameters. */
  readonly path: string;
  /** Schema of the payload the envelope carries, as the client parses it (for a list: one item). */
  readonly payload: ZodMiniType;
  /** A list: the payload is an array of `payload` items, with pagination `meta`. */
  readonly list?: true;
}

/** The routes both variants have, by operation id: a client of either takes them without the other's table. */
export const COMMON_ROUTES = {
  listContacts: { method: 'GET', path: '/contacts', payload: ContactSchema, list: true },
  getContact: { method: 'GET', path: '/contacts/{id}', payload: ContactSchema },
  updateContact: { method: 'PUT', path: '/contacts/{id}', payload: ContactSchema },
  getAccount: { method: 'GET', path: '/account/me', payload: AccountSchema },
} as const satisfies Record<string, Route>;
const { listContacts, getContact, updateContact, getAccount } = COMMON_ROUTES;

/** The routes of Variant 1's endpoints, by operation id. */
export const VARIANT1_ROUTES = {
  sendMessage: { method: 'POST', path: '/messages/send', payload: MessageSchema },
  sendTemplateMessage: { method: 'POST', path: '/messages/template', payload: MessageSchema },
  getMessageStatus: { method: 'GET', path: '/messages/{id}/status', payload: MessageSchema },
  listContacts,
  createContact: { method: 'POST', path: '/contacts/create', payload: ContactSchema },
  getContact,
  updateContact,
  triggerAutomation: { method: 'POST', path: '/automations/trigger', payload: AutomationExecutionSchema },
  getAccount,
} as const satisfies Record<string, Route>;

/** The routes of Variant 2's endpoints, by operation id. */
export const VARIANT2_ROUTES = {
  listContacts,
  createContact: { method: 'POST', path: '/contacts', payload: ContactSchema },
  getContact,
  updateContact,
  deleteContact: { method: 'DELETE', path: '/contacts/{id}', payload: DeleteResultSchema },
  sendMessage: { method: 'POST', path: '/messages/send', payload: MessageSchema },
  listConversations: { method: 'GET', path: '/conversations', payload: ConversationSchema, list: true },
  getConversation: { method: 'GET', path: '/conversations/{id}', payload: ConversationWithMessagesSchema },
  listCampaigns: { method: 'GET', path: '/campaigns', payload: CampaignSchema, list: true },
  createCampaign: { method: 'POST', path: '/campaigns', payload: CampaignSchema },
  listWebhooks: { method: 'GET', path: '/webhooks', payload: WebhookEndpointSchema, list: true },
  createWebhook: { method: 'POST', path: '/webhooks', payload: WebhookEndpointSchema },
  getAccount,
} as const satisfies Record<string, Route>;
