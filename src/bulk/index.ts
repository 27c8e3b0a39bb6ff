// bizmsg/bulk: one message per recipient, at most once, resumable; on BullMQ for many machines (named re-exports only).
export { sendBulk } from './send-bulk.js';
export { BulkRun } from './bulk-run.js';
export { memoryJournal } from './journal.js';
export type { BulkJournal, JournalEntry } from './journal.js';
export { fileJournal } from './file-journal.js';
export { BulkJournalBusyError, BulkJournalDamagedError, BulkJournalMismatchError } from './errors.js';
export type {
  BulkClient,
  Variant1BulkClient,
  Variant2BulkClient,
  BulkMessage,
  BulkStatus,
  BulkError,
  BulkResult,
  BulkReport,
  BulkProgress,
} from './types.js';
export type { SendBulkOptions } from './options.js';
export { enqueueBulk } from './queue/enqueue.js';
export type { EnqueueBulkOptions, EnqueueReport } from './queue/enqueue.js';
export { createBulkWorker } from './queue/worker.js';
export type { BulkWorker, BulkWorkerOptions } from './queue/worker.js';
export { bulkReport } from './queue/report.js';
export type { BulkQueueReport } from './queue/report.js';
export type { BulkConnection } from './queue/peers.js';
