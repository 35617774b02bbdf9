// test-fixture.js — the seed apps' answer to the inspector's "Copy as test" (it replaces the
// client's /js/inspector/test-fixture.js): how a Swift test builds each screen's view model, with
// the imports it needs. Only screens whose copied tests have been compiled and run are listed;
// others (and every child view model) get the inspector's explanation instead.

const SCREENS = {
  // The login form: no dependencies, no clock. Its sign-in is not replayed: the copy knows the
  // password only as a stand-in, and a test signs in with a viewer of its own.
  form: {
    imports: ['BinderyTesting', 'SeedApps', 'Testing'], setup: [], subject: 'FormViewModel()',
    skip: { signIn: 'it signs the session in with a password the copy does not know' },
  },
};

/** {imports, setup, subject, clock?, skip?} for the view `{path, name, root}`, or null. */
export function testFixture(view) {
  if (!view || !view.root) return null;
  const fixture = SCREENS[view.name];
  return fixture ? { ...fixture, imports: [...fixture.imports], setup: [...fixture.setup] } : null;
}

/** Why there is no fixture, in words. */
export function noFixtureReason(view) {
  if (view && !view.root) return 'Copy as test is for a screen: a child view model is tested through its screen.';
  return `Copy as test is not offered for this screen yet: only ${Object.keys(SCREENS).join(', ')} has a test fixture.`;
}
