// Node, Bun and Deno: loads the entries as a user's ESM code would and prints the scenario's result.
// Arguments: the mock's base URL, its API key, then the entries to load.
import { runScenario } from './scenario.mjs';

const [baseUrl, apiKey, ...specifiers] = globalThis.Deno?.args ?? globalThis.process.argv.slice(2);
const entries = {};
for (const specifier of specifiers) entries[specifier] = await import(specifier);
console.log(JSON.stringify(await runScenario({ entries, baseUrl, apiKey, sync: true })));
