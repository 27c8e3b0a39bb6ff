// A process of its own that uses a fileStatusStore, for file-store.integration.test.ts (run through tsx).
// Argument: JSON { path, act, changes? }. Acts:
// - `merge`: merges `changes`, prints "merged", then exits with process.exit, without closing the store;
// - `hold`: opens the store, prints "open", and keeps it until its stdin ends, then closes it and exits;
// - `open`: opens the store and prints what came of it as JSON ({ opened } or { error, message }).
import { fileStatusStore, type StatusChange } from '../../../src/webhooks/index.js';

const {
  path,
  act,
  changes = [],
} = JSON.parse(process.argv[2]!) as {
  path: string;
  act: 'merge' | 'hold' | 'open';
  changes?: StatusChange[];
};
const store = fileStatusStore(path);

if (act === 'merge') {
  for (const change of changes) await store.merge(change);
  process.stdout.write('merged\n', () => process.exit(0));
} else if (act === 'hold') {
  await store.get('any');
  process.stdout.write('open\n');
  process.stdin.resume();
  process.stdin.on('end', () => void store.close().then(() => process.exit(0)));
} else {
  try {
    await store.get('any');
    await store.close();
    console.log(JSON.stringify({ opened: true }));
  } catch (error) {
    console.log(JSON.stringify({ error: (error as Error).name, message: (error as Error).message }));
  }
}
