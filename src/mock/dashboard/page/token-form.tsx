// Asks for the control token when the mock needs one (bound to a shared address) and the tab has
// none or a wrong one: kept for this tab only, never put in the URL.
import { useState } from 'preact/hooks';
import { setControlToken } from './token.js';

/** The form that takes the control token. */
export function TokenForm() {
  const [token, setToken] = useState('');
  return (
    <main id="main" class="token-form">
      <h1>bizmsg mock</h1>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setControlToken(token.trim());
          location.reload();
        }}
      >
        <p>
          This mock's control API needs its control token: bizmsg-mock printed it at start (<code>Control token:</code>
          ), and its <code>Dashboard:</code> line carries it for this page.
        </p>
        <label for="control-token">Control token</label>
        <input
          id="control-token"
          type="password"
          autocomplete="off"
          required
          value={token}
          onInput={(event) => setToken(event.currentTarget.value)}
        />
        <button type="submit">Connect</button>
      </form>
    </main>
  );
}
