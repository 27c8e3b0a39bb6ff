// Conversations: one thread per contact (and per number that wrote without being one), its messages
// in order with their status on the virtual clock, and the box to write as the customer.
import type { StoredContact } from '../../../state/records.js';
import { phoneKey, textOf } from '../format.js';
import { hrefOf } from '../route.js';
import type { MockView } from '../use-mock.js';
import { Thread, type ThreadOf } from './thread.js';

/** The conversations view; `phone` (the fragment's) picks the thread shown. */
export function ConversationsView({ mock, phone }: { mock: MockView; phone: string | undefined }) {
  const threads = threadsOf(mock);
  const shown = threads.find((thread) => thread.key === phoneKey(phone ?? '')) ?? threads[0];
  return (
    <section class="conversations" aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>
        Conversations
      </h2>
      {threads.length === 0 ? (
        <p>No contact and no message yet: create a contact through the API, or seed some.</p>
      ) : (
        <div class="split">
          <ul class="threads" aria-label="Threads">
            {threads.map((thread) => (
              <li key={thread.key}>
                <a href={hrefOf('conversations', thread.key)} aria-current={thread === shown ? 'true' : undefined}>
                  <span class="who" title={thread.contact?.name ?? thread.phone}>
                    {thread.contact?.name ?? thread.phone}
                  </span>
                  <span class="preview">{previewOf(thread)}</span>
                </a>
              </li>
            ))}
          </ul>
          {shown === undefined ? null : <Thread key={shown.key} mock={mock} thread={shown} />}
        </div>
      )}
    </section>
  );
}

/** The threads: contacts first, in their order, then numbers that wrote or were written to. */
function threadsOf(mock: MockView): ThreadOf[] {
  const { contacts, conversations, messages } = mock.snapshot!;
  const byId = new Map(messages.map((message) => [message.id, message]));
  const conversationOf = new Map(conversations.map((c) => [phoneKey(c.phone), c]));
  const thread = (phone: string, contact: StoredContact | undefined): ThreadOf => {
    const conversation = conversationOf.get(phoneKey(phone));
    const ids = conversation?.message_ids ?? [];
    return {
      key: phoneKey(phone),
      phone,
      contact,
      conversation,
      messages: ids.flatMap((id) => byId.get(id) ?? []),
    };
  };
  const known = new Set(contacts.map((contact) => phoneKey(contact.phone)));
  return [
    ...contacts.map((contact) => thread(contact.phone, contact)),
    ...conversations
      .filter((c) => !known.has(phoneKey(c.phone)))
      .map((c) => thread(`+${phoneKey(c.phone)}`, undefined)),
  ];
}

function previewOf(thread: ThreadOf): string {
  const last = thread.messages.at(-1);
  if (last === undefined) return thread.phone;
  const text = last.type === 'template' ? `Template ${textOf(last.content.name)}` : textOf(last.content.body);
  return `${last.direction === 'inbound' ? 'Customer: ' : 'You: '}${text}`;
}
