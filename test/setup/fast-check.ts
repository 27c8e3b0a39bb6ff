import fc from 'fast-check';

// Every property of a run draws from one fixed seed, so that a run that passed passes again and a
// failure can be replayed: fast-check's failure message names the seed (and the path to the
// counterexample); `FC_SEED=<seed> npx vitest run <file>` runs the properties from it again, and
// any other FC_SEED explores other inputs.
const DEFAULT_SEED = 20_261_128;

const given = process.env.FC_SEED;
const seed = given === undefined || given === '' ? DEFAULT_SEED : Number(given);
if (!Number.isSafeInteger(seed))
  throw new Error(`FC_SEED must be an integer (fast-check's seed), got ${JSON.stringify(given)}.`);

fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
