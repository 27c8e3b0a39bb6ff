// The box to write as the customer: an inbound message from the thread's number (the control API's
// POST /_bizmsg/inbound), so that the app under test gets message.received.
import { useState } from 'preact/hooks';
import { control } from '../api.js';
import type { MockView } from '../use-mock.js';

/** Writes as the customer at `phone`. */
export function CustomerBox({ mock, phone }: { mock: MockView; phone: string }) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const send = async () => {
    if (text.trim() === '') return;
    setSending(true);
    const sent = await mock.act(() => control('POST', '/inbound', { from: phone, body: text }));
    setSending(false);
    if (sent) setText('');
  };
  return (
    <form
      class="customer-box"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <label for="customer-message">Message as the customer ({phone})</label>
      <textarea
        id="customer-message"
        rows={2}
        value={text}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          // Enter sends, Shift+Enter makes a new line: as in the messengers customers use.
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            void send();
          }
        }}
      />
      <button type="submit" disabled={sending}>
        Send
      </button>
    </form>
  );
}
