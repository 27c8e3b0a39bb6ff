// Who is asking: the key a request presents, and whether it may use the endpoint.
import type { Scope } from '../../contract/scopes.js';
import type { Variant } from '../../contract/variant.js';
import { MockHttpError } from '../wire/http-error.js';
import type { MockRequest } from '../wire/request.js';
import type { MockKey, MockStore } from '../state/store.js';

/** The key a request presents, in the variant's header; undefined when absent. */
function presentedKey(request: MockRequest, variant: Variant): string | undefined {
  if (variant === 1) return request.headers.get('x-api-key') ?? undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  return match?.[1];
}

/** The key of a request: 401 AUTHENTICATION_ERROR when missing or unknown, 401 KEY_REVOKED when revoked. */
export function authenticate(request: MockRequest, variant: Variant, store: MockStore): MockKey {
  const presented = presentedKey(request, variant);
  const header = variant === 1 ? 'X-API-Key header' : 'Authorization: Bearer header';
  if (presented === undefined)
    throw new MockHttpError('AUTHENTICATION_ERROR', `Missing API key: send it in the ${header}.`);
  const key = store.keys.get(presented);
  if (key === undefined) throw new MockHttpError('AUTHENTICATION_ERROR', 'Invalid API key.');
  if (key.revoked)
    throw new MockHttpError('KEY_REVOKED', 'This API key was revoked; generate a new one in the dashboard.');
  return key;
}

/** 403 INSUFFICIENT_PERMISSIONS unless the key has `scope`. */
export function authorize(key: MockKey, scope: Scope): void {
  if (!key.scopes.includes(scope)) {
    throw new MockHttpError('INSUFFICIENT_PERMISSIONS', `This API key lacks the ${scope} scope.`, {
      required_scope: scope,
    });
  }
}
