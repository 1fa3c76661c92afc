/**
 * The custom LSP messages of Paper Digest, declared once and used by the client and the server.
 * Each states its direction, its parameters and its result; the README lists them for other
 * editors.
 */

/** The language id of digest documents. */
export const LANGUAGE_ID = 'paper-digest';
