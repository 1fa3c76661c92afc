/**
 * One parse per document version: every feature asks the cache and receives the same model.
 */
import type { DigestDocument } from './model';
import { parseDigest } from './parser';

export interface VersionedText {
  readonly uri: string;
  readonly version: number;
  getText(): string;
}

/**
 * Keeps the latest model of each open document.
 *
 * @example
 * const cache = new DigestCache();
 * const model = cache.get(textDocument); // parses once
 * cache.get(textDocument) === model;     // true until the version changes
 */
export class DigestCache {
  private readonly models = new Map<string, { version: number; model: DigestDocument }>();
  /** How many parses the cache has run, for tests that check parsing happens once per version. */
  parseCount = 0;

  constructor(private readonly parse: (text: string) => DigestDocument = parseDigest) {}

  get(document: VersionedText): DigestDocument {
    const cached = this.models.get(document.uri);
    if (cached && cached.version === document.version) {
      return cached.model;
    }
    const model = this.parse(document.getText());
    this.parseCount++;
    this.models.set(document.uri, { version: document.version, model });
    return model;
  }

  /** The cached model of a URI, whatever its version, without parsing. */
  peek(uri: string): DigestDocument | undefined {
    return this.models.get(uri)?.model;
  }

  delete(uri: string): void {
    this.models.delete(uri);
  }
}
