// What keeps values of any length within the window: a value cut after a few lines (a name, URL,
// tag, route: it wraps anywhere, its title holds it whole), and a table that, on a screen narrower
// than its columns, scrolls sideways in its own box instead of the page.
import type { ComponentChildren } from 'preact';

/** `text` in at most `lines` lines (1 to 3), whole in its title. */
export function Cut({ text, lines = 3 }: { text: string; lines?: 1 | 2 | 3 }) {
  return (
    <span class={`cut cut-${lines}`} title={text}>
      {text}
    </span>
  );
}

/** A table's box, named `label`: focusable, so that the keyboard scrolls it where it scrolls. */
export function Wide({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="wide" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
