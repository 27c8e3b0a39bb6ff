// fileStatusStore as the Web build of bizmsg/webhooks has it: it needs Node's file system, so it says which stores work here.
import { BizMsgError } from '../../shared/errors.js';
import type { FileStatusStoreOptions } from './file-store.js';
import type { StatusStore } from './store.js';

/**
 * On this build (Workers, browsers), throws: a folder of records needs Node's file system and
 * LevelDB. Use `memoryStatusStore()`, or `redisStatusStore(redis)` from `bizmsg/redis`.
 */
export function fileStatusStore(_path: string, _options?: FileStatusStoreOptions): StatusStore {
  throw new BizMsgError(
    'fileStatusStore keeps records in a folder, which needs Node (its file system and the package classic-level); this runtime loaded the Web build of bizmsg/webhooks. ' +
      'Use memoryStatusStore() here, or redisStatusStore(redis) from bizmsg/redis to keep statuses across restarts.',
  );
}
