// One conversation: who it is with, its status and assignee (close, reopen, reassign), its messages
// in order with direction and status times (and buttons to decide a sent message's fate), and the
// box to write as the customer.
import { useState } from 'preact/hooks';
import type { StoredContact, StoredConversation, StoredMessage } from '../../../state/records.js';
import { control } from '../api.js';
import { textOf, timeOf } from '../format.js';
import type { MockView } from '../use-mock.js';
import { CustomerBox } from './customer-box.js';
import { Cut } from './bounded.js';

/** A contact's thread, or a number's that is no contact. */
export interface ThreadOf {
  readonly key: string;
  readonly phone: string;
  readonly contact: StoredContact | undefined;
  readonly conversation: StoredConversation | undefined;
  readonly messages: readonly StoredMessage[];
}

/** How many of a thread's newest messages are shown before "Show earlier" is asked for. */
const SHOWN = 200;

/** One thread. */
export function Thread({ mock, thread }: { mock: MockView; thread: ThreadOf }) {
  const [all, setAll] = useState(false);
  const { conversation, messages } = thread;
  const shown = all ? messages : messages.slice(-SHOWN);
  return (
    <article class="thread" aria-label={`Conversation with ${thread.contact?.name ?? thread.phone}`}>
      <header>
        <h3>
          <Cut text={thread.contact?.name ?? thread.phone} lines={2} />
        </h3>
        <p class="phone">{thread.phone}</p>
        {conversation === undefined ? (
          <p class="muted">No conversation yet: the first message opens one.</p>
        ) : (
          <ConversationControls
            mock={mock}
            id={conversation.id}
            status={conversation.status}
            assignee={conversation.assigned_to}
          />
        )}
      </header>
      {shown.length < messages.length ? (
        <button type="button" class="link" onClick={() => setAll(true)}>
          Show {messages.length - shown.length} earlier messages
        </button>
      ) : null}
      <ol class="messages" aria-label="Messages">
        {shown.map((message) => (
          <Message key={message.id} mock={mock} message={message} today={Date.parse(mock.snapshot!.now)} />
        ))}
      </ol>
      <CustomerBox mock={mock} phone={thread.phone} />
    </article>
  );
}

function ConversationControls(props: { mock: MockView; id: number; status: string; assignee: string | null }) {
  const { mock, id, status, assignee } = props;
  const [assignTo, setAssignTo] = useState(assignee ?? '');
  const change = (body: Record<string, unknown>) => mock.act(() => control('PATCH', `/conversations/${id}`, body));
  return (
    <div class="conversation-controls">
      <p>
        Conversation #{id}: <span class={`badge status-${status}`}>{status}</span>
        {assignee === null ? (
          ', unassigned'
        ) : (
          <>
            , assigned to <Cut text={assignee} lines={1} />
          </>
        )}
      </p>
      {status === 'closed' ? (
        <button type="button" onClick={() => void change({ status: 'open' })}>
          Reopen conversation
        </button>
      ) : (
        <button type="button" onClick={() => void change({ status: 'closed' })}>
          Close conversation
        </button>
      )}
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          void change({ assigned_to: assignTo.trim() === '' ? null : assignTo.trim() });
        }}
      >
        <label for={`assignee-${id}`}>Assign to</label>
        <input
          id={`assignee-${id}`}
          value={assignTo}
          placeholder="nobody if empty"
          onInput={(event) => setAssignTo(event.currentTarget.value)}
        />
        <button type="submit">Reassign</button>
      </form>
    </div>
  );
}

function Message({ mock, message, today }: { mock: MockView; message: StoredMessage; today: number }) {
  const times: Array<[string, string | undefined]> = [
    [message.direction === 'inbound' ? 'received' : 'sent', message.created_at],
    ['delivered', message.delivered_at],
    ['read', message.read_at],
    ['failed', message.failed_at],
  ];
  return (
    <li class={`message ${message.direction}`}>
      <p class="sender">{message.direction === 'inbound' ? 'Customer' : 'Your app'}</p>
      {message.type === 'template' ? (
        <Template content={message.content} />
      ) : (
        <p class="body">{textOf(message.content.body)}</p>
      )}
      <p class="meta">
        <span class={`badge status-${message.status}`}>{message.status}</span>{' '}
        {times
          .filter(([, at]) => at !== undefined)
          .map(([what, at]) => `${what} ${timeOf(at!, today)}`)
          .join(' · ')}
        {message.campaign_id === undefined ? '' : ` · campaign #${message.campaign_id}`}
        {message.error === undefined ? '' : ` · ${message.error.code}: ${message.error.message}`}
      </p>
      <Fate mock={mock} message={message} />
    </li>
  );
}

/** What a sent message may still become, from where it is (read and failed are where it ends). */
const NEXT: Readonly<Record<string, readonly string[]>> = {
  sent: ['delivered', 'read', 'failed'],
  delivered: ['read', 'failed'],
};

/** Buttons that decide an outbound message's fate now, as a test does with setMessageStatus. */
function Fate({ mock, message }: { mock: MockView; message: StoredMessage }) {
  const next = message.direction === 'outbound' ? (NEXT[message.status] ?? []) : [];
  if (next.length === 0) return null;
  const mark = (status: string) =>
    mock.act(() => control('POST', `/messages/${encodeURIComponent(message.id)}/status`, { status }));
  return (
    <p class="fate" role="group" aria-label={`Fate of message ${message.id}`}>
      {next.map((status) => (
        <button key={status} type="button" class="link" disabled={mock.busy} onClick={() => void mark(status)}>
          Mark {status}
        </button>
      ))}
    </p>
  );
}

/** A template message: its name, language and the parameters its components carry. */
function Template({ content }: { content: Record<string, unknown> }) {
  const parameters = parametersOf(content.components);
  return (
    <p class="body template">
      Template <strong>{textOf(content.name)}</strong>
      {content.language === undefined ? '' : ` (${textOf(content.language)})`}
      {parameters.length === 0 ? '' : `: ${parameters.join(', ')}`}
    </p>
  );
}

/** The text of each component's parameters (`{ type: 'text', text }`), else each parameter as JSON. */
function parametersOf(components: unknown): string[] {
  if (!Array.isArray(components)) return [];
  return components.flatMap((component: { parameters?: unknown }) =>
    Array.isArray(component?.parameters)
      ? component.parameters.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : JSON.stringify(p)))
      : [JSON.stringify(component)],
  );
}
