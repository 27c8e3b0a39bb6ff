// Chromium: the entries a page can load, bundled for the browser; the test calls window.runMatrix.
import * as main from 'bizmsg';
import * as webhooks from 'bizmsg/webhooks';
import { startApi } from './browser-api.mjs';
import { runScenario } from './scenario.mjs';

window.runMatrix = async (fromTest) => {
  const { baseUrl, apiKey } = await startApi(fromTest);
  const entries = { bizmsg: main, 'bizmsg/webhooks': webhooks };
  return runScenario({ entries, baseUrl, apiKey, sync: false });
};
