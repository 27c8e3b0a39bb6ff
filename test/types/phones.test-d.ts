import { describe, expectTypeOf, it } from 'vitest';
import {
  normalizePhone,
  samePhone,
  Variant2Client,
  type ClientOptions,
  type Contact,
  type ContactUpsertResult,
  type NormalizePhoneOptions,
  type PhoneFormat,
  type RequestOptions,
  type Variant1Client,
} from '../../src/index.js';

declare const v1: Variant1Client;
declare const v2: Variant2Client;

describe('normalizePhone and samePhone', () => {
  it('take strings and a format, and give a string and a boolean', () => {
    expectTypeOf(normalizePhone('+4915112345678')).toEqualTypeOf<string>();
    expectTypeOf(normalizePhone('+4915112345678', { format: 'digits' })).toEqualTypeOf<string>();
    expectTypeOf<PhoneFormat>().toEqualTypeOf<'e164' | 'digits'>();
    expectTypeOf<NormalizePhoneOptions>().toEqualTypeOf<{ format?: PhoneFormat }>();
    // @ts-expect-error 'keep' is a client option, not a format normalizePhone writes
    normalizePhone('+4915112345678', { format: 'keep' });
    // @ts-expect-error a number is not a phone number's spelling
    normalizePhone(4915112345678);
    expectTypeOf(samePhone('+4915112345678', '004915112345678')).toEqualTypeOf<boolean>();
    // @ts-expect-error two numbers are compared
    samePhone('+4915112345678');
  });
});

describe('the phoneFormat option', () => {
  it('is one of three forms', () => {
    expectTypeOf<ClientOptions['phoneFormat']>().toEqualTypeOf<'e164' | 'digits' | 'keep' | undefined>();
    new Variant2Client({ phoneFormat: 'keep' });
    // @ts-expect-error not a form the client writes
    new Variant2Client({ phoneFormat: 'E164' });
  });
});

describe('contacts by phone (Variant 2)', () => {
  it('findByPhone resolves the contact or undefined, with request options last', () => {
    expectTypeOf(v2.contacts.findByPhone).parameters.toEqualTypeOf<[phone: string, options?: RequestOptions]>();
    expectTypeOf(v2.contacts.findByPhone('+4915112345678')).toEqualTypeOf<Promise<Contact | undefined>>();
  });

  it('upsert takes a contact with its phone and name, and resolves the contact and whether it was created', () => {
    expectTypeOf(v2.contacts.upsert({ phone: '+4915112345678', name: 'Ada' })).toEqualTypeOf<
      Promise<ContactUpsertResult>
    >();
    expectTypeOf<ContactUpsertResult>().toEqualTypeOf<{ contact: Contact; created: boolean }>();
    void v2.contacts.upsert(
      { phone: '+4915112345678', name: 'Ada', tags: ['vip'] },
      { signal: AbortSignal.timeout(1000) },
    );
    // @ts-expect-error the phone is what it is found by
    void v2.contacts.upsert({ name: 'Ada' });
    // @ts-expect-error a contact it creates needs a name
    void v2.contacts.upsert({ phone: '+4915112345678' });
    // @ts-expect-error not a contact field
    void v2.contacts.upsert({ phone: '+4915112345678', name: 'Ada', nickname: 'A' });
  });

  it('are Variant 2 only: Variant 1 has no search to build them on', () => {
    // @ts-expect-error Variant 1 lists without search
    void v1.contacts.findByPhone;
    // @ts-expect-error Variant 1 lists without search
    void v1.contacts.upsert;
  });
});
