// The mock's API keys and plans: the variant's plans with the user's merged over them, keys drawn
// from the seeded randomness (the same seed gives the same keys), and the checks a key spec passes.
import { SCOPES } from '../../contract/scopes.js';
import type { Variant } from '../../contract/variant.js';
import { showValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { badArgument } from '../calls/errors.js';
import {
  DEFAULT_PLAN,
  VARIANT1_PLANS,
  VARIANT2_PLANS,
  type MockKeySpec,
  type MockPlan,
  type MockServerOptions,
} from '../options.js';
import type { MockStore } from './store.js';

/** The plans and keys of one mock. */
export class KeyRing {
  /** Plans by name: the variant's defaults with the user's merged over them. */
  readonly plans: Readonly<Record<string, MockPlan>>;
  readonly #variant: Variant;
  readonly #random: () => number;

  constructor(variant: Variant, plans: MockServerOptions['plans'], random: () => number) {
    this.#variant = variant;
    this.#random = random;
    this.plans = mergePlans(variant, plans);
  }

  /** A new key, `sk_test_` and 32 hex digits from the seeded randomness. */
  newKey(): string {
    let hex = '';
    while (hex.length < 32)
      hex += Math.floor(this.#random() * 0x100000000)
        .toString(16)
        .padStart(8, '0');
    return `sk_test_${hex}`;
  }

  /** Adds a key to `store`; scopes left out mean all of them (`[]`: none), the plan defaults to the variant's largest. */
  add(store: MockStore, { key, scopes, plan, revoked }: MockKeySpec): void {
    const planName = plan ?? DEFAULT_PLAN[this.#variant];
    if (!Object.hasOwn(this.plans, planName)) {
      throw badArgument(
        'plan',
        `must be one of ${Object.keys(this.plans).join(', ')}`,
        `Unknown plan ${showValue(planName)}; this mock has: ${Object.keys(this.plans).join(', ')}.`,
      );
    }
    for (const scope of scopes ?? []) {
      if (!(SCOPES as readonly string[]).includes(scope))
        throw badArgument(
          'scopes',
          `must be among ${SCOPES.join(', ')}`,
          `Unknown scope ${showValue(scope)}; the scopes are: ${SCOPES.join(', ')}.`,
        );
    }
    store.keys.set(key, {
      key,
      scopes: scopes === undefined ? [...SCOPES] : [...scopes],
      plan: planName,
      revoked: revoked ?? false,
    });
  }
}

function mergePlans(variant: Variant, overrides: MockServerOptions['plans'] = {}): Record<string, MockPlan> {
  // A null prototype: plan names come from the user, and "__proto__" must stay a name.
  const plans: Record<string, MockPlan> = Object.assign(
    Object.create(null) as Record<string, MockPlan>,
    variant === 1 ? VARIANT1_PLANS : VARIANT2_PLANS,
  );
  for (const [name, plan] of Object.entries(overrides)) {
    // An override given as undefined keeps the plan's own value, as one left out.
    const given = Object.entries(plan ?? {}).filter(([, value]) => value !== undefined);
    const merged = { ...plans[name], ...Object.fromEntries(given) } as MockPlan;
    if (!Number.isInteger(merged.rateLimit) || merged.rateLimit < 1)
      throw new InvalidArgumentError(`Plan "${name}" needs a positive integer rateLimit.`);
    // An infinite window would make every window start at NaN, and the limit never apply.
    if (merged.window !== undefined && !(merged.window >= 1000 && Number.isFinite(merged.window))) {
      throw new InvalidArgumentError(
        `Plan "${name}": window is a finite number of ms, at least 1000, got ${showValue(merged.window)}.`,
      );
    }
    plans[name] = merged;
  }
  return plans;
}
