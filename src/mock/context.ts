import type { VirtualClock } from './state/clock.js';
import type { WebhookDispatcher } from './state/dispatcher.js';
import type { Messaging } from './state/messaging.js';
import type { MockVariant } from './options.js';
import type { MockStore } from './state/store.js';

/** What route handlers share. */
export interface MockContext {
  readonly variant: MockVariant;
  /** 400 for Variant 1, 422 for Variant 2. */
  readonly validationStatus: number;
  readonly clock: VirtualClock;
  readonly messaging: Messaging;
  readonly events: WebhookDispatcher;
  readonly templates: ReadonlySet<string>;
  store(): MockStore;
}
