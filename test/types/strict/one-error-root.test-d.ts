// One BizMsgError for every entry (issue 42): a subclass thrown by any entry is assignable to the
// root imported from any other, so one `catch` narrows them all, under every moduleResolution.
import { type BizMsgError, InvalidArgumentError } from 'bizmsg';
import { type BizMsgError as BulkRoot, type CsvReadError } from 'bizmsg/bulk';
import { type BizMsgError as MockRoot, type InvalidArgumentError as MockInvalid } from 'bizmsg/mock';
import { type BizMsgError as RedisRoot, type InvalidArgumentError as RedisInvalid } from 'bizmsg/redis';
import {
  type StatusStoreBusyError,
  type WebhookVerificationError,
  type BizMsgError as WebhooksRoot,
} from 'bizmsg/webhooks';

export function roots(
  verification: WebhookVerificationError,
  busy: StatusStoreBusyError,
  csv: CsvReadError,
  mock: MockInvalid,
  invalid: RedisInvalid,
): BizMsgError[] {
  const fromEach: [BizMsgError, BulkRoot, MockRoot, RedisRoot, WebhooksRoot] = [
    verification,
    busy,
    csv,
    mock,
    new InvalidArgumentError('x'),
  ];
  const same: InvalidArgumentError = invalid;
  return [...fromEach, same];
}
