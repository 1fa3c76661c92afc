/**
 * The order of ranked papers, one for every list that ranks them (the Papers view's *For you*,
 * Triage, `paper-digest papers`): the highest score first, then the newest digest, then the
 * order they came in (file order).
 */

/**
 * The items in ranking order; the keys are worked out once per item, not once per comparison.
 *
 * @example inRankOrder(papers, (paper) => lookup.score(paper), (paper) => lookup.digestRank(paper.uri))
 */
export function inRankOrder<T>(items: readonly T[], score: (item: T) => number, digestRank: (item: T) => number): T[] {
  // The sort keys in typed arrays: no object per item to collect.
  const scores = new Float64Array(items.length);
  const ranks = new Int32Array(items.length);
  const order = new Uint32Array(items.length);
  for (let i = 0; i < items.length; i++) {
    scores[i] = score(items[i]);
    ranks[i] = digestRank(items[i]);
    order[i] = i;
  }
  order.sort((a, b) => scores[b] - scores[a] || ranks[b] - ranks[a] || a - b);
  const result = new Array<T>(items.length);
  for (let i = 0; i < order.length; i++) {
    result[i] = items[order[i]];
  }
  return result;
}
