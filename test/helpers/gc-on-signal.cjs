// Loaded into a process under test (node --expose-gc --require): SIGUSR2 runs a full garbage
// collection and writes process.memoryUsage() (in bytes) to the file BIZMSG_GC_REPORT names, as
// JSON `{ signals, usage }`, `signals` counting the signals answered, so that a test reads what the
// process holds rather than what V8 has yet to collect, and knows the report answers its own signal
// (test/helpers/memory-report.ts). Written beside the file, then renamed: never read half-written.
const { renameSync, writeFileSync } = require('node:fs');

let signals = 0;
process.on('SIGUSR2', () => {
  globalThis.gc();
  globalThis.gc();
  signals += 1;
  const report = process.env.BIZMSG_GC_REPORT;
  if (report === undefined) return;
  writeFileSync(`${report}.tmp`, JSON.stringify({ signals, usage: process.memoryUsage() }));
  renameSync(`${report}.tmp`, report);
});
