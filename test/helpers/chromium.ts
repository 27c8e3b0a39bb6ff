// How the tests and benchmarks start Debian's chromium through playwright-core: one home for the
// binary's path and its flags (each caller imports playwright-core itself, from its own project).

/** Debian's chromium package (.ci/run installs it); never a browser download. CHROMIUM_PATH overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless, as root in a container, and quiet: no GPU, no QUIC, no updates or sync calling out. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
