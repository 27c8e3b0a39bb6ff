// An AWS Lambda behind API Gateway (REST or HTTP API) receiving the service's webhooks.
// Set BIZMSG_WEBHOOK_SECRET in the function's environment.
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, APIGatewayProxyResult } from 'aws-lambda';
import { createWebhookHandler } from 'bizmsg/webhooks';

const receive = createWebhookHandler({
  secret: process.env.BIZMSG_WEBHOOK_SECRET ?? '',
  on: {
    'message.delivered': (event) =>
      console.log(`message ${event.data.message_id} delivered at ${event.data.delivered_at}`),
    'message.failed': (event) => console.warn('message failed', event.data),
  },
});

export async function handler(event: APIGatewayProxyEvent | APIGatewayProxyEventV2): Promise<APIGatewayProxyResult> {
  const method = 'httpMethod' in event ? event.httpMethod : event.requestContext.http.method;
  const response = await receive(
    new Request('https://lambda.invalid/webhooks/bizmsg', { method, headers: headersOf(event), body: rawBody(event) }),
  );
  return { statusCode: response.status, headers: { 'content-type': 'application/json' }, body: await response.text() };
}

/**
 * The body exactly as the service sent it: API Gateway passes it as a string, base64-encoded
 * when it treats it as binary. The signature covers these bytes, so never re-serialize JSON.
 */
function rawBody(event: APIGatewayProxyEvent | APIGatewayProxyEventV2): BodyInit | undefined {
  if (event.body === undefined || event.body === null) return undefined;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64') : event.body;
}

function headersOf(event: APIGatewayProxyEvent | APIGatewayProxyEventV2): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers)) if (value !== undefined) headers.set(name, value);
  return headers;
}
