// bizmsg/bulk: one message per recipient, at most once, resumable; on BullMQ for many machines (named re-exports only).
export { sendBulk } from './send-bulk.js';
export type { BulkRun } from './bulk-run.js';
export { memoryJournal } from './journal.js';
export type { BulkJournal, JournalEntry, JournalHeader } from './journal.js';
export { fileJournal } from './file-journal.js';
export { BulkJournalBusyError, BulkJournalDamagedError, BulkJournalMismatchError, CsvReadError } from './errors.js';
export type { CsvProblem } from './errors.js';
export { readCsv } from './csv/read-csv.js';
export { bulkOutcomes } from './outcomes.js';
export type {
  BulkOutcome,
  BulkOutcomeStatus,
  BulkOutcomesOptions,
  BulkStatusRecord,
  BulkStatusSource,
} from './outcomes.js';
export { toCsv } from './csv/to-csv.js';
export type { ToCsvOptions } from './csv/to-csv.js';
export { BizMsgError, InvalidArgumentError } from '../shared/errors.js';
export type { CsvRow, CsvSource, ReadCsvOptions } from './csv/read-csv.js';
export type {
  BulkClient,
  Variant1BulkClient,
  Variant2BulkClient,
  BulkMessage,
  BulkStatus,
  BulkFailure,
  BulkResult,
  BulkReport,
  BulkProgress,
} from './types.js';
export type { SendBulkOptions, Suppression } from './options.js';
export { enqueueBulk } from './queue/enqueue.js';
export type { EnqueueBulkOptions, EnqueueReport } from './queue/enqueue.js';
export { createBulkWorker } from './queue/worker.js';
export type { BulkWorker, BulkWorkerOptions } from './queue/worker.js';
export { bulkReport } from './queue/report.js';
export type { BulkConnection } from './queue/peers.js';
