import { ApiError } from './api.ts';

/**
 * What the visitor reads when something fails (docs/widget-script.md: clear, friendly messages for 429,
 * 403, exhausted credits and lost network). Never the server's raw text: it is written for
 * developers, and the visitor cannot act on it.
 */
export function friendly(err: unknown): string {
  if (!(err instanceof ApiError)) return 'Something went wrong. Please try again.';
  if (err.status === 0 || !navigator.onLine) {
    return "You seem to be offline. Check your connection; we'll reconnect when you're back.";
  }
  if (err.code === 'credits_limit_exceeded') {
    return "Our assistant can't answer right now. Please try again later, or leave your details and we'll get back to you.";
  }
  if (err.status === 429 && err.details.quota !== undefined) {
    return 'Our assistant has answered all the messages it can for today. Please come back tomorrow.';
  }
  if (err.status === 429) {
    const wait = err.retryAfter;
    return wait > 0
      ? `You're sending messages a little fast. Please wait ${waitText(wait)} and try again.`
      : "You're sending messages a little fast. Please wait a moment and try again.";
  }
  if (err.status === 403) return "Chat isn't available on this website right now.";
  if (err.status === 404) return 'This chat is no longer available.';
  if (err.status === 413 || err.code === 'bad_request:chat')
    return "That message couldn't be sent. Please shorten it or start a new chat.";
  return 'Something went wrong on our side. Please try again in a moment.';
}

export function waitText(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? 'a minute' : `${minutes} minutes`;
}
