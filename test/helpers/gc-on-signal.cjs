// Loaded into a process under test (node --expose-gc --require): SIGUSR2 runs a full garbage
// collection and writes process.memoryUsage() (in bytes, as JSON) to the file BIZMSG_GC_REPORT
// names, so that a test reads what the process holds rather than what V8 has yet to collect.
const { writeFileSync } = require('node:fs');

process.on('SIGUSR2', () => {
  globalThis.gc();
  globalThis.gc();
  if (process.env.BIZMSG_GC_REPORT !== undefined)
    writeFileSync(process.env.BIZMSG_GC_REPORT, JSON.stringify(process.memoryUsage()));
});
