// The scopes a key can have, and what each grants (spec section 5).
/** The scopes a key can have (spec section 5). */
export const SCOPES = [
  'messages:send',
  'messages:read',
  'contacts:write',
  'contacts:read',
  'automations:trigger',
  'webhooks:manage',
  'account:read',
] as const;
/** One key scope. */
export type Scope = (typeof SCOPES)[number];

/** What each scope grants, in the spec's words. */
export const SCOPE_GRANTS: Readonly<Record<Scope, string>> = {
  'messages:send': 'send text and template messages',
  'messages:read': 'read message status and history',
  'contacts:write': 'create and update contacts',
  'contacts:read': 'list and view contacts',
  'automations:trigger': 'trigger automation flows',
  'webhooks:manage': 'manage webhook endpoints',
  'account:read': 'view account information',
};
