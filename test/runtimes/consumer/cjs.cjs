// Node and Bun: the same as esm.mjs, with the entries loaded by require().
const [baseUrl, apiKey, ...specifiers] = process.argv.slice(2);
const entries = Object.fromEntries(specifiers.map((specifier) => [specifier, require(specifier)]));
import('./scenario.mjs')
  .then(({ runScenario }) => runScenario({ entries, baseUrl, apiKey, sync: true }))
  .then((result) => console.log(JSON.stringify(result)));
