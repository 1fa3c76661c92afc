/**
 * Answers kept per document version: an editor asks the outline, folding ranges and semantic
 * tokens of the same version again and again (on focus, on scroll, after each of its own
 * debounces), and every answer of an unchanged version is the same.
 */
import type { Cancellation } from './cancellation';
import { NEVER_CANCELLED } from './cancellation';

/**
 * The answers of each open document's latest version, by feature, with counters of how often
 * each was computed and served from the cache.
 *
 * @example
 * const answers = new AnswerCache();
 * answers.get(uri, 3, 'outline', () => documentSymbols(model)); // computes
 * answers.get(uri, 3, 'outline', () => documentSymbols(model)); // the same array, cached
 * answers.counters; // { 'outline.computed': 1, 'outline.cached': 1 }
 */
export class AnswerCache {
  private readonly byUri = new Map<string, { version: number; answers: Map<string, unknown> }>();
  /** `<feature>.computed` and `<feature>.cached`, for tests and the benchmark. */
  readonly counters: Record<string, number> = {};

  /**
   * The feature's answer for this version of the document: the cached one, or `compute()`'s,
   * which is kept unless the request was cancelled meanwhile (a cancelled feature answers
   * empty). Answers of older versions are dropped.
   */
  get<T>(uri: string, version: number, feature: string, compute: () => T, token: Cancellation = NEVER_CANCELLED): T {
    let entry = this.byUri.get(uri);
    if (!entry || entry.version !== version) {
      entry = { version, answers: new Map() };
      this.byUri.set(uri, entry);
    }
    if (entry.answers.has(feature)) {
      this.count(feature + '.cached');
      return entry.answers.get(feature) as T;
    }
    const answer = compute();
    this.count(feature + '.computed');
    if (!token.isCancellationRequested) {
      entry.answers.set(feature, answer);
    }
    return answer;
  }

  /** Forgets a document's answers (it was closed). */
  delete(uri: string): void {
    this.byUri.delete(uri);
  }

  private count(name: string): void {
    this.counters[name] = (this.counters[name] ?? 0) + 1;
  }
}
