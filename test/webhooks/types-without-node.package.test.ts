import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPackedProject, typeCheckWithoutNode } from '../helpers/packed-project.js';

/**
 * A Workers or browser project has no @types/node: the packed package's types for
 * bizmsg/webhooks must type-check there, under every resolution a project may use.
 */

let project: string;

const consumer = `
import { createWebhookHandler, defineWebhookHandlers, parseWebhookAsync, verifyWebhookAsync, type WebhookEvent } from 'bizmsg/webhooks';

const options = defineWebhookHandlers({
  secret: 'whsec',
  on: { 'message.delivered': (event) => console.log(event.data.delivered_at.toUpperCase()) },
});
export default { fetch: createWebhookHandler(options) } satisfies { fetch: (request: Request) => Promise<Response> };

export async function check(request: Request): Promise<WebhookEvent | boolean> {
  const body = await request.text();
  const signature = request.headers.get('x-service-signature');
  return (await verifyWebhookAsync(body, signature, 'whsec')) && parseWebhookAsync(body, signature, ['whsec', 'old']);
}
`;

beforeAll(async () => {
  // zod is the package's one dependency that its declarations refer to.
  project = await createPackedProject(inject('tarball'), 'bizmsg-web-types-', ['zod'], { 'worker.ts': consumer });
}, 60_000);
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the types of bizmsg/webhooks without @types/node ("types": [], lib DOM)', () => {
  it.each([
    ['bundler', { module: 'ESNext', moduleResolution: 'bundler' }],
    [
      'bundler, Workers conditions',
      { module: 'ESNext', moduleResolution: 'bundler', customConditions: ['workerd', 'worker'] },
    ],
    ['nodenext (the node condition)', { module: 'NodeNext', moduleResolution: 'NodeNext' }],
  ])(
    'type-check under %s resolution',
    async (name, resolution) => {
      expect(await typeCheckWithoutNode(project, name, 'worker.ts', resolution)).toBe('no errors');
    },
    60_000,
  );
});
