// access.js — what the session may read and write, as the catalogue says it. Every screen and
// child route of the catalogue (the copy in the page lists them all) has `readAccess` and
// `writeAccess`: {signIn, roles, conditional}. The page uses them to show only what the user may
// open (the header's nav, the home page's links), to send an anonymous visitor to the sign-in
// page before asking for a screen that needs a user, and to show a view's inputs read-only when
// the user may not change them. The server decides all the same (401, 403): this only spares the
// user a control that would be refused.

/**
 * Whether `access` ({signIn, roles, conditional}; missing: anyone) admits `user` ({roles} or
 * null): no sign-in needed, or signed in with one of the roles (none listed: any user). A rule
 * that depends on the view model (`conditional`) counts as admitting: the server has the last word.
 */
export function admits(access, user) {
  if (!access) return true;
  const roles = Array.isArray(access.roles) ? access.roles : [];
  if (!access.signIn && roles.length === 0) return true;
  if (!user) return false;
  return roles.length === 0 || roles.some((role) => (user.roles || []).includes(role));
}

/** The catalogue's views that `user` may read (the nav's and the home page's list). */
export function readable(views, user) {
  return (views || []).filter((view) => admits(view.readAccess, user));
}

/**
 * Why `user` may not do what `access` asks: "sign-in" (anonymous: signing in may help),
 * "not-allowed" (signed in without the role), or null (admitted).
 */
export function refusal(access, user) {
  if (admits(access, user)) return null;
  return user ? 'not-allowed' : 'sign-in';
}
