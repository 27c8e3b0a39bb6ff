import fc from 'fast-check';

/** Parameter names: ordinary ones, CSV column names with spaces, and names that look like built-ins. */
const paramName = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/),
  fc.constantFrom('Order ID', 'toString', 'constructor', 'hasOwnProperty', 'valueOf', 'name'),
);
const paramNames = fc.uniqueArray(paramName, { maxLength: 7 }).filter((names) => !names.includes('language'));

/** A template spec with unique parameter names spread over header, body and buttons. */
export const templateSpec = fc
  .record({
    names: paramNames,
    cuts: fc.array(fc.nat(), { minLength: 2, maxLength: 2 }),
    buttons: fc.array(fc.record({ sub_type: fc.constantFrom('url', 'quick_reply' as const), take: fc.nat(2) }), {
      maxLength: 3,
    }),
    languages: fc.option(fc.uniqueArray(fc.constantFrom('en', 'de', 'pt_BR', 'fr'), { minLength: 1, maxLength: 3 }), {
      nil: undefined,
    }),
  })
  .map(({ names, cuts, buttons, languages }) => {
    const [a, b] = cuts.map((cut) => cut % (names.length + 1)).sort((x, y) => x - y) as [number, number];
    let rest = names.slice(b);
    return {
      ...(languages === undefined ? {} : { languages }),
      ...(a > 0 ? { header: names.slice(0, a) } : {}),
      body: names.slice(a, b),
      buttons: buttons.map(({ sub_type, take }) => {
        const params = rest.slice(0, take);
        rest = rest.slice(take);
        return { sub_type, params };
      }),
    };
  });

/** Values a parameter may take: text with something in it, or a finite number. */
export const paramValue = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }).filter((text) => text.trim() !== ''),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
