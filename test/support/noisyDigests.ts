/**
 * Random digests for property tests: generated entries (test/bench/generate.ts), each with noise
 * (pieces of digest material or random strings) added to one of its lines, which changes what
 * the fields hold or breaks them.
 */
import * as fc from 'fast-check';
import { generatedEntry } from '../bench/generate';

/** Digest texts of 1–12 generated entries, each with up to 12 of `pieces` (or short strings) on a line. */
export function noisyDigests(pieces: readonly string[]): fc.Arbitrary<string> {
  const noise = fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 4 })), { maxLength: 12 });
  return fc.array(fc.tuple(fc.nat(40), noise), { minLength: 1, maxLength: 12 }).map((entries) => {
    const paragraphs = ['大模型推理能力'];
    for (const [seed, added] of entries) {
      const lines = generatedEntry(seed % 7);
      lines[seed % lines.length] += added.join('');
      paragraphs.push(...lines);
    }
    return paragraphs.join('\n\n') + '\n';
  });
}
