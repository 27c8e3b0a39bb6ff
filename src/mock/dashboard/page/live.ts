// The mock's activity as it happens: GET /_bizmsg/stream read with fetch (an EventSource cannot send
// the control token) and parsed by eventsource-parser; reconnects a second after the mock went away.
import { createParser } from 'eventsource-parser';
import { controlHeaders } from './api.js';

/** How the stream is doing. */
export type LiveStatus = 'connecting' | 'live' | 'offline' | 'unauthorized';

/** What the stream tells. */
export interface LiveListener {
  /** An event: `ready` (connected: everything may have changed) or `activity`, with its JSON data. */
  event(name: string, data: string): void;
  status(status: LiveStatus): void;
}

/** Follows the stream until the function it returns is called. */
export function followActivity(listener: LiveListener): () => void {
  let stopped = false;
  let controller = new AbortController();
  const run = async () => {
    while (!stopped) {
      controller = new AbortController();
      listener.status('connecting');
      const ended = await readStream(controller.signal, listener);
      if (stopped) return;
      if (ended === 'unauthorized') {
        listener.status('unauthorized');
        return;
      }
      listener.status('offline');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };
  void run();
  return () => {
    stopped = true;
    controller.abort();
  };
}

/** Reads one connection to its end: how it ended. */
async function readStream(signal: AbortSignal, listener: LiveListener): Promise<'ended' | 'unauthorized'> {
  try {
    const response = await fetch('/_bizmsg/stream', { headers: controlHeaders(), signal });
    if (response.status === 401) return 'unauthorized';
    if (!response.ok || response.body === null) return 'ended';
    const parser = createParser({
      onEvent: (event) => {
        if (event.event === 'ready') listener.status('live');
        listener.event(event.event ?? 'message', event.data);
      },
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return 'ended';
      parser.feed(value);
    }
  } catch {
    // The mock stopped, restarted or the page left: the caller tries again unless it stopped.
    return 'ended';
  }
}
