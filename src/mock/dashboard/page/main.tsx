// The dashboard's entry in the browser: takes a token from the fragment, then renders the page.
import { render } from 'preact';
import { App } from './app.js';
import { adoptFragmentToken } from './token.js';
import './style.css';

adoptFragmentToken();
const root = document.getElementById('app')!;
// The "Loading…" line is for a browser that has not run this yet: Preact renders beside what it finds.
root.replaceChildren();
render(<App />, root);
