/**
 * The form to show once a save has answered. Edits typed while the request was under way are
 * kept (and so still count as unsaved); otherwise the form starts again from what the server
 * stored. `sent` is the form object that was submitted: every edit makes a new object, so the
 * same object means nothing changed since.
 */
export function afterSave<F>(current: F, sent: F, stored: F): F {
  return current === sent ? stored : current
}
