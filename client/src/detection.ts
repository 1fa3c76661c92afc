/**
 * Content detection: a plain `.txt` file whose first lines read like a digest is switched to the
 * digest language. Pure, so it can be tested without an editor.
 */

/** Labels that only digests use. */
const DIGEST_MARKERS = ['专题命中', 'AI总结', '机构 * '];

/** How many lines from the top are examined. */
export const DETECTION_LINES = 60;

/**
 * Whether the first lines of a text read like a digest: at least two of the digest labels stand
 * at the start of a line.
 *
 * @example
 * looksLikeDigest('主题\n\nTitle\n\n标题\n\nA B\n\n专题命中 x ：a(title)；分类 cs.CL\n\nAI总结 …') // true
 */
export function looksLikeDigest(text: string): boolean {
  const lines = text.split(/\r\n|\r|\n/, DETECTION_LINES);
  const seen = new Set<string>();
  for (const line of lines) {
    const trimmed = line.replace(/^\uFEFF/, '').trimStart();
    for (const marker of DIGEST_MARKERS) {
      if (trimmed.startsWith(marker.trimEnd())) {
        seen.add(marker);
      }
    }
  }
  return seen.size >= 2;
}
