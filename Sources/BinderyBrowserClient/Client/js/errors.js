// errors.js — what can go wrong with a request (api.js throws these) and how it is said: a
// problem the server answered (RFC 9457) or no answer at all; a short sentence in plain words for
// the user, the server's own words for the "Details" disclosure. api.js re-exports all of it.

/** An RFC 9457 problem (or any non-2xx answer) returned by the server. */
export class ProblemError extends Error {
  constructor(status, problem, { retryAfter = null } = {}) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.name = 'ProblemError';
    this.status = status;
    this.problem = problem;
    this.retryAfter = retryAfter; // seconds the answer's Retry-After asks to wait, or null
  }
}

/** The request never got an HTTP answer (server down, connection dropped). */
export class NetworkError extends Error {
  constructor(cause) {
    super('The server cannot be reached');
    this.name = 'NetworkError';
    this.cause = cause;
  }
}
/**
 * The server wants a signed-in user for this (401 "Sign-in required"): the page asks the user to
 * sign in (app.js) instead of saying it failed.
 */
export function signInRequired(err) {
  return err instanceof ProblemError && err.status === 401;
}

/** Signed in, but this user may not do that (403 "Not allowed"): an error like any other. */
export function notAllowed(err) {
  return err instanceof ProblemError && err.status === 403;
}

// What the user reads, by status, by status: plain words, no codes, no field paths. The server's own words
// are kept for problemDetails(), shown behind a "Details" disclosure.
const PLAIN = {
  400: 'The server could not read that request.',
  401: 'Sign in to do that.',
  403: 'You are not allowed to do that.',
  404: 'There is nothing here: it was removed, or the address is not right.',
  409: 'That is not possible right now.',
  412: 'Someone else changed this meanwhile.',
  413: 'That is too large to send.',
  422: 'That value is not accepted.',
  429: 'Too many requests at once. Wait a moment and try again.',
  502: 'A service this screen needs did not answer properly. Try again.',
  503: 'The server is busy or restarting. Try again in a moment.',
};

/** A short sentence in plain words for any error thrown by this module (or a command's error). */
export function describeError(err) {
  if (err instanceof ProblemError) {
    if (err.status === 422 && err.problem && err.problem.field) return `That value is not accepted: ${err.problem.detail.replace(/^'[^']*':\s*/, '')}`;
    // A command's own refusal (its problem names the command) is in the app's words: "Wrong phone
    // number or password."
    if ([422, 429].includes(err.status) && err.problem && err.problem.command && err.problem.detail) return err.problem.detail;
    return PLAIN[err.status] || (err.status >= 500 ? 'Something went wrong on the server. Try again.' : 'That did not work.');
  }
  if (err instanceof NetworkError) return 'The server cannot be reached. Check the connection and try again.';
  if (isUpstreamError(err)) return UPSTREAM_PLAIN;
  return err && err.message ? err.message : String(err);
}

/** What a failure of the service behind the server (`origin: "upstream"`) says in plain words. */
export const UPSTREAM_PLAIN = 'A service this screen needs did not answer properly. Try again.';

/** Whether `err` is a view model's error object that came from its upstream ({code, message, origin}). */
export function isUpstreamError(err) {
  return Boolean(err) && typeof err === 'object' && !(err instanceof Error) && err.origin === 'upstream';
}

/**
 * A view model's error object ({code, message, origin, ...}) as the lines of its "Details":
 * "Code: 500", "Message: Bad Network", "From: the upstream service", then any other member.
 */
export function errorFacts(err) {
  if (err == null) return '';
  if (typeof err !== 'object') return String(err);
  const lines = [];
  if (err.code != null) lines.push(`Code: ${err.code}`);
  if (err.message) lines.push(`Message: ${err.message}`);
  if (err.origin) lines.push(`From: ${err.origin === 'upstream' ? 'the upstream service' : err.origin}`);
  for (const [k, v] of Object.entries(err)) {
    if (!['code', 'message', 'origin'].includes(k)) lines.push(`${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}`);
  }
  return lines.join('\n');
}

/** The technical account of an error, for the "Details" disclosure. */
export function problemDetails(err) {
  if (err instanceof ProblemError) {
    const p = err.problem || {};
    return [`HTTP ${err.status}`, p.title, p.detail].filter(Boolean).join(' · ');
  }
  if (err instanceof NetworkError) return String(err.cause || err.message);
  return err && typeof err === 'object' && !(err instanceof Error) ? errorFacts(err) : String(err);
}
