// action-panel.js — the inspector's "last action" part: the curl line of the page's last answered
// request (its secrets masked), copied on demand, and "Copy as test", which writes the page's steps
// on the screen's view model as a Swift test through the app's js/inspector/test-fixture.js.
// Methods of the Inspector (inspector.js mixes them in).

import { recent } from '../trace.js';
import { curlLine, outcome } from './curl.js';
import { parseURL } from './recorder.js';
import { maskBody } from './secrets.js';
import { swiftTest } from './swift-test.js';

export const actionPanel = {
  /** The last write the page made (on this screen's view model or any other), masked. */
  renderAction() {
    const last = recent((r) => r.type === 'request' && r.phase === 'answered').pop();
    const curl = this.part('curl');
    const where = last && parseURL(last.url);
    const view = where ? this.viewAt(where.path) : null;
    const secrecy = this.secrecy();
    const known = last && (!where || view) && secrecy;
    this.part('copy').hidden = !known;
    curl.hidden = !known;
    if (!last) {
      curl.textContent = '';
      this.part('outcome').textContent = 'No action yet: type in a field or press a button.';
      return;
    }
    if (!known) {
      curl.textContent = '';
      this.part('outcome').textContent = 'Loading…';
      return;
    }
    const names = view ? view.sensitive : [];
    const safe = { ...last, body: maskBody(last.body, names, secrecy.current) };
    curl.textContent = curlLine(safe, { origin: location.origin, shownVersion: this.shownAtSend.get(last.id) });
    this.part('outcome').textContent = `${last.method} ${new URL(last.url, location.origin).pathname} · ${outcome(last)}`;
  },

  async copy() {
    const status = this.part('copied');
    try {
      await navigator.clipboard.writeText(this.part('curl').textContent);
      status.textContent = 'Copied.';
    } catch {
      getSelection().selectAllChildren(this.part('curl'));
      status.textContent = 'Selected: copy it with your keyboard.';
    }
  },

  /** The app's test fixture for the view in view: {fixture, reason}. */
  async fixture() {
    const view = this.binder && this.viewAt(this.binder.path);
    if (!view) return { fixture: null, reason: this.binder ? 'Loading…' : 'This screen has no view model to test.' };
    let module;
    try { module = await import('./test-fixture.js'); } catch { module = {}; }
    const info = { path: this.binder.path, name: view.name, root: view.root };
    const fixture = view.root && typeof module.testFixture === 'function' ? module.testFixture(info) : null;
    const reason = fixture ? null : typeof module.noFixtureReason === 'function' ? module.noFixtureReason(info)
      : !view.root ? 'Copy as test is for a screen: a child view model is tested through its screen.'
        : 'Copy as test needs this app to say how a test builds the view model.';
    return { fixture, reason, view: info, sensitive: view.sensitive };
  },

  /** Whether "Copy as test" can be used here, said next to it. */
  async renderTest() {
    const button = this.part('copy-test');
    const note = this.part('test-note');
    const binder = this.binder;
    const { fixture, reason } = await this.fixture();
    if (binder !== this.binder) return;
    const steps = binder ? this.recorder.stepsOf(binder.path).length : 0;
    button.disabled = !fixture;
    note.textContent = fixture
      ? `Replays this page's ${steps} step${steps === 1 ? '' : 's'} on this view model (writes and commands since the page loaded) as a Swift test.`
      : reason;
  },

  /** Writes the page's steps as a Swift test: to the clipboard, and shown below the button. */
  async copyTest() {
    const status = this.part('test-copied');
    const output = this.part('test-code');
    const binder = this.binder;
    const { fixture, view, sensitive } = await this.fixture();
    if (!fixture || !binder) return;
    status.textContent = 'Writing the test…';
    const history = this.historyOf(binder.path);
    await history.load({ force: true });
    const text = swiftTest({ view, fixture, steps: this.recorder.stepsOf(binder.path), history, sensitive });
    output.value = text;
    output.hidden = false;
    this.part('test-code-label').hidden = false;
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = `Copied: ${text.split('\n').length - 1} lines of Swift.`;
    } catch {
      output.focus();
      output.select();
      let copied = false;
      try { copied = document.execCommand('copy'); } catch { copied = false; }
      status.textContent = copied ? `Copied: ${text.split('\n').length - 1} lines of Swift.` : 'Selected below: copy it with your keyboard.';
    }
  },
};
