// Figure 9's child, run in the packed project as a serverless handler's cold start: import the SDK,
// make its client, send one request to the server the bench runs (argv[3]), and exit. argv[2]
// names the subject; the bench times the whole process, start to exit.
const [subject, origin] = process.argv.slice(2);
const baseUrl = `${origin}/api/v1`;

const handlers = {
  bare: async () => undefined,
  fetch: async () =>
    JSON.parse(await (await fetch(`${baseUrl}/contacts/1`, { headers: { authorization: 'Bearer sk_cold' } })).text()),
  bizmsg: async () => {
    const { Variant2Client } = await import('bizmsg');
    return new Variant2Client({ apiKey: 'sk_cold', baseUrl }).contacts.get(1);
  },
  openai: async () => {
    const { default: OpenAI } = await import('openai');
    return new OpenAI({ apiKey: 'sk_cold', baseURL: `${origin}/v1`, maxRetries: 0 }).models.retrieve('gpt-x');
  },
  stripe: async () => {
    const { default: Stripe } = await import('stripe');
    const { port } = new URL(origin);
    const stripe = new Stripe('sk_test_cold', {
      host: '127.0.0.1',
      port: Number(port),
      protocol: 'http',
      telemetry: false,
    });
    return stripe.customers.retrieve('cus_1');
  },
};

await handlers[subject]();
// A keep-alive socket would hold the process open; a handler's runtime freezes it instead.
process.exit(0);
