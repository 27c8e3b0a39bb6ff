// Routes of messages: sends of both variants, Variant 1's status; the views of a stored message.
import { VARIANT1_ENDPOINTS, VARIANT2_ENDPOINTS } from '../../contract/endpoints.js';
import {
  Variant2SendMessageSchema,
  Variant1SendTemplateSchema,
  Variant1SendTextSchema,
} from '../../schemas/message-params.js';
import type { MockContext } from '../context.js';
import { notFound } from '../wire/http-error.js';
import { parseBody } from '../rules/json-body.js';
import type { OutboundMessage } from '../state/messaging.js';
import { MESSAGING_ACCOUNTS } from '../options.js';
import { checkPlanLimit } from '../rules/plan-limits.js';
import type { Route, RouteInput } from '../rules/router.js';
import type { StoredMessage } from '../state/records.js';
import { checkPhone, validationError } from '../rules/validate.js';

/** Message endpoints of a variant. */
export function messageRoutes(ctx: MockContext): Route[] {
  if (ctx.variant === 2) {
    return [{ endpoint: VARIANT2_ENDPOINTS.sendMessage, handle: (input) => sendV2(ctx, input) }];
  }
  return [
    { endpoint: VARIANT1_ENDPOINTS.sendMessage, handle: (input) => sendTextV1(ctx, input) },
    { endpoint: VARIANT1_ENDPOINTS.sendTemplateMessage, handle: (input) => sendTemplateV1(ctx, input) },
    {
      endpoint: VARIANT1_ENDPOINTS.getMessageStatus,
      handle: ({ params }) => ({ data: messageView(find(ctx, params.id!), 1) }),
    },
  ];
}

async function sendTextV1(ctx: MockContext, input: RouteInput) {
  const body = await parseBody(input.request, Variant1SendTextSchema);
  return send(ctx, input, {
    to: body.to,
    type: 'text',
    content: { body: body.message },
    messaging_account_id: MESSAGING_ACCOUNTS[0],
  });
}

async function sendTemplateV1(ctx: MockContext, input: RouteInput) {
  const { to, ...content } = await parseBody(input.request, Variant1SendTemplateSchema);
  return send(ctx, input, { to, type: 'template', content, messaging_account_id: MESSAGING_ACCOUNTS[0] }, () =>
    ctx.templates.checkSend(content, ''),
  );
}

async function sendV2(ctx: MockContext, input: RouteInput) {
  const body = await parseBody(input.request, Variant2SendMessageSchema);
  checkMessagingAccount(body.messaging_account_id);
  const outbound = {
    to: body.to,
    type: body.type,
    content: body.content,
    messaging_account_id: body.messaging_account_id,
  };
  return send(ctx, input, outbound, () => {
    if (body.type === 'template') ctx.templates.checkSend(body.content, 'content.');
  });
}

/** Sends `outbound` once its number, its template (`checkTemplate`) and the plan's limit allow it. */
function send(ctx: MockContext, { plan }: RouteInput, outbound: OutboundMessage, checkTemplate = () => {}) {
  checkPhone(outbound.to, 'to');
  checkTemplate();
  checkPlanLimit(plan, 'maxMessages', ctx.store().outboundSent);
  return { data: messageView(ctx.messaging.send(outbound), ctx.variant) };
}

/** VALIDATION_ERROR unless `id` is one of the account's messaging accounts. */
export function checkMessagingAccount(id: number): void {
  if (!(MESSAGING_ACCOUNTS as readonly number[]).includes(id)) {
    throw validationError({
      messaging_account_id: ['is not a messaging account of this account'],
    });
  }
}

function find(ctx: MockContext, id: string): StoredMessage {
  const message = ctx.store().messages.get(id);
  if (message === undefined) throw notFound('Message', id);
  return message;
}

/**
 * A message as sent on the wire: Variant 1 names its id `message_id`, Variant 2 `id`. A failure's
 * `error` stays out: the spec shows no such field of a message (its `message.failed` event carries it).
 */
export function messageView(message: StoredMessage, variant: 1 | 2): Record<string, unknown> {
  const { id, error: _error, ...fields } = message;
  return variant === 1 ? { message_id: id, ...fields } : { id, ...fields };
}
