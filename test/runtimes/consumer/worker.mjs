// workerd: the entries a Worker can load, bundled as wrangler would; POST { baseUrl, apiKey } runs the scenario.
import * as main from 'bizmsg';
import * as mock from 'bizmsg/mock';
import * as webhooks from 'bizmsg/webhooks';
import { runScenario } from './scenario.mjs';

export default {
  async fetch(request) {
    const { baseUrl, apiKey } = await request.json();
    try {
      const entries = { bizmsg: main, 'bizmsg/webhooks': webhooks, 'bizmsg/mock': mock };
      return Response.json(await runScenario({ entries, baseUrl, apiKey, sync: false }));
    } catch (error) {
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};
