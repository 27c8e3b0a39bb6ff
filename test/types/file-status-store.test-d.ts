import { describe, expectTypeOf, it } from 'vitest';
import {
  createStatusTracker,
  fileStatusStore,
  type BizMsgError,
  type FileStatusStoreOptions,
  type StatusStore,
  type StatusStoreBusyError,
  type StatusStoreOptions,
} from '../../src/webhooks/index.js';
import { fileStatusStore as webFileStatusStore } from '../../src/webhooks/web.js';

describe('fileStatusStore types', () => {
  it('is a status store like the others, with the same signature in both builds', () => {
    expectTypeOf(fileStatusStore).returns.toEqualTypeOf<StatusStore>();
    expectTypeOf(fileStatusStore).parameters.toEqualTypeOf<[path: string, options?: FileStatusStoreOptions]>();
    expectTypeOf(webFileStatusStore).toEqualTypeOf(fileStatusStore);
    expectTypeOf<FileStatusStoreOptions>().toExtend<StatusStoreOptions>();
    createStatusTracker({ store: fileStatusStore('./statuses', { ttl: 86_400_000 }) });
    // @ts-expect-error the folder is a path
    fileStatusStore(new URL('file:///statuses'));
  });

  it('names the folder on its busy error', () => {
    expectTypeOf<StatusStoreBusyError>().toExtend<BizMsgError>();
    expectTypeOf<StatusStoreBusyError['path']>().toEqualTypeOf<string>();
  });
});
