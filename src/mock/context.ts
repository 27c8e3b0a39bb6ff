// What the mock's route handlers share: the variant, the clock, the store and the service's behaviour.
import type { Variant } from '../contract/variant.js';
import type { OwnServer } from './rules/guard/own-server.js';
import type { MockTemplates } from './rules/templates.js';
import type { VirtualClock } from './state/clock.js';
import type { WebhookDispatcher } from './state/dispatcher.js';
import type { Messaging } from './state/messaging.js';
import type { MockStore } from './state/store.js';

/** What route handlers share. */
export interface MockContext {
  readonly variant: Variant;
  readonly clock: VirtualClock;
  readonly messaging: Messaging;
  readonly events: WebhookDispatcher;
  readonly templates: MockTemplates;
  /** Which webhook URLs would lead back to the mock itself. */
  readonly ownServer: OwnServer;
  store(): MockStore;
}
