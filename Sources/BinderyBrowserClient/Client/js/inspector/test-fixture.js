// test-fixture.js — how a test copied from the inspector ("Copy as test") builds the view model in
// view. Building one is the app's business (its initialiser, its dependencies, a clock), so this
// client knows none: an app serves its own /js/inspector/test-fixture.js (its Public/ wins over
// this file) exporting the same function. Until it does, "Copy as test" says why it is off.

/**
 * For the view `{path, name, root}` (root: a screen, not a child route), what the test needs:
 *   {imports: ["BinderyTesting", "MyApp", "Testing"], setup: ["let clock = TestClock()"],
 *    subject: "MyViewModel()", clock: "clock"}   (clock: optional, the TestClock's name)
 * or null when this app has not said how (then "Copy as test" is disabled, with a reason).
 */
export function testFixture(view) { // eslint-disable-line no-unused-vars
  return null;
}

/** Why there is no fixture, in words, for the inspector to say. */
export function noFixtureReason(view) {
  return view && !view.root
    ? 'Copy as test is for a screen: a child view model is tested through its screen.'
    : 'Copy as test needs this app to say how a test builds the view model (its /js/inspector/test-fixture.js).';
}
