/**
 * The names of a file counted from the summaries of its papers (`summaryTerms`, what the index
 * keeps for a file on disk) against the names counted from its model (`fileTerms`).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import * as fc from 'fast-check';
import { documentTooLarge } from '../../server/src/service/limits';
import { parseDigest } from '../../server/src/service/parser';
import { FileTerms, fileTerms, summaryTerms } from '../../server/src/service/terms';
import { completions } from '../../server/src/service/features/completion';
import { PAPERS_GROUPINGS, papersTree } from '../../server/src/service/features/tree';
import { workspaceSymbols } from '../../server/src/service/features/workspaceSymbols';
import { summariseDigest, WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { WorkspaceTerms } from '../../server/src/service/workspaceTerms';
import { generatedDigest } from '../bench/generate';
import { FIXTURES } from '../support/fixtures';
import { digestText, DIGEST_MATERIAL } from '../support/modelChecks';
import { digestMutant } from '../support/mutants';
import { noisyDigests } from '../support/noisyDigests';

/** The counts as nested entry lists, so that the order of every map is compared too. */
function ordered(terms: FileTerms): unknown {
  const counts = (map: Map<string, number>) => [...map];
  return {
    institutions: [...terms.institutions].map(([key, each]) => [key, counts(each.names), counts(each.translations), each.papers]),
    authors: [...terms.authors].map(([key, each]) => [key, counts(each.names), counts(each.forms)]),
    topics: counts(terms.topics),
    keywords: [...terms.keywords].map(([key, forms]) => [key, counts(forms)]),
    categories: counts(terms.categories),
  };
}

/** What the index counted for a text before: `fileTerms` of its model (none past a limit). */
function modelTerms(text: string): FileTerms {
  const doc = parseDigest(text);
  return fileTerms(documentTooLarge(doc) ? parseDigest('') : doc);
}

function checkSame(text: string): void {
  const doc = parseDigest(text);
  const expected = modelTerms(text);
  const summary = summariseDigest('file:///w/a.digest', doc, 'disk');
  assert.deepEqual(ordered(summaryTerms(summary.papers)), ordered(expected));
  assert.deepEqual(ordered(summary.terms), ordered(expected));
}

/** Every digest fixture, as a list of texts. */
function fixtureTexts(): string[] {
  const texts: string[] = [];
  const visit = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (/\.digest(\.txt)?$/i.test(entry.name)) texts.push(fs.readFileSync(full, 'utf8'));
    }
  };
  visit(FIXTURES);
  return texts;
}

/** Random digests, some with white space inside the brackets of translations and Chinese forms. */
const digests = fc
  .tuple(fc.oneof(digestMutant, noisyDigests(DIGEST_MATERIAL), digestText), fc.constantFrom('', ' ', '\u3000', ' \t'))
  .map(([text, space]) => (space ? text.replaceAll('（', '（' + space).replaceAll('）', space + '）') : text));

/** Digests with names the counts leave out or trim: blank translations and names, spaced forms. */
const EDGE_CASES = [
  '大模型推理能力\n\nSparse Probes\n\n稀疏探针\n\nMei Tanaka\n\n机构 * Kyoto University（ 京都大学 ）； Fudan University（　）； （清华）； 　\n\n专题命中 数学推理 ：reasoning(abstract)； (title)；分类 cs.CL、 \n\nAI总结 x。\n',
  '大模型推理能力\n\nSparse Probes\n\n稀疏探针\n\nMei Tanaka, Wei Zhang\n\n机构 * Mei Tanaka, Wei Zhang（ 田中 、 ）\n\n专题命中  ：分类 \n\nAI总结 x。\n',
  // Items that are not institutions: a tag, a category code, a name without a letter.
  '大模型推理能力\n\nSparse Probes\n\n稀疏探针\n\nMei Tanaka\n\n机构 * [cs.AI] ； Kyoto University（京都大学） ； cs.LG ； — 纠错\n\n专题命中 数学推理 ：reasoning(abstract)；分类 cs.CL\n\nAI总结 x。\n',
];

describe('summaryTerms: the names of a file from its summary', () => {
  test('Should count what fileTerms counts for every fixture and a generated digest', () => {
    const texts = fixtureTexts();
    assert.ok(texts.length > 10);
    for (const text of [...texts, ...EDGE_CASES, generatedDigest(300)]) checkSame(text);
  });

  test('Should count what fileTerms counts for random digests (property)', () => {
    fc.assert(fc.property(digests, checkSame), { numRuns: 400 });
  });

  test('Should give the workspace the counts it had when every file was counted from its model', () => {
    fc.assert(
      fc.property(fc.array(digests, { minLength: 1, maxLength: 4 }), (texts) => {
        const index = new WorkspaceIndex();
        const terms = new WorkspaceTerms(index);
        const reference = new WorkspaceTerms();
        texts.forEach((text, i) => {
          index.update(`file:///w/${i}.digest`, text);
          reference.set(`file:///w/${i}.digest`, modelTerms(text));
        });
        // A file changed again and one removed: the counts follow the index.
        index.update('file:///w/0.digest', texts[texts.length - 1]);
        reference.set('file:///w/0.digest', modelTerms(texts[texts.length - 1]));
        if (texts.length > 1) {
          index.remove('file:///w/1.digest');
          reference.set('file:///w/1.digest', undefined);
        }
        assert.deepEqual(workspaceCounts(terms), workspaceCounts(reference));
      }),
      { numRuns: 100 },
    );
  });

  test('Should give the same workspace answers whether or not the names were counted first (property)', () => {
    fc.assert(
      fc.property(fc.array(digests, { minLength: 1, maxLength: 4 }), fc.nat(), (texts, pick) => {
        // The names of every file counted as it comes in (as they were before they were counted
        // when first asked)...
        const counted = new WorkspaceIndex();
        // ...and an index whose names nobody asked for until its answers were given.
        const uncounted = new WorkspaceIndex();
        const uris = texts.map((_, i) => `file:///w/${i}.digest`);
        texts.forEach((text, i) => {
          counted.update(uris[i], text);
          assert.ok(counted.file(uris[i])?.terms);
          uncounted.update(uris[i], text);
        });
        const papers = counted.files().flatMap((file) => file.papers);
        const query = papers.length > 0 ? papers[pick % papers.length].title.slice(0, 12) : 'a';
        const answers = (index: WorkspaceIndex) => ({
          trees: PAPERS_GROUPINGS.map((grouping) => papersTree(index, grouping, '')),
          symbols: workspaceSymbols(index, query),
        });
        assert.deepEqual(answers(uncounted), answers(counted));
        // A file renamed before its names were counted, then the names asked for.
        counted.rename(uris[0], 'file:///w/moved.digest');
        uncounted.rename(uris[0], 'file:///w/moved.digest');
        assert.deepEqual(answers(uncounted), answers(counted));
        // The workspace's names, taken at the same time from both.
        const countedTerms = new WorkspaceTerms(counted);
        const uncountedTerms = new WorkspaceTerms(uncounted);
        assert.deepEqual(workspaceCounts(uncountedTerms), workspaceCounts(countedTerms));
        // Completion on every line of a file, at its end and in its middle, from both.
        const doc = parseDigest(texts[pick % texts.length]);
        const completing = (index: WorkspaceIndex, terms: WorkspaceTerms) => {
          const workspace = { terms, authorsOf: (uri: string, entryIndex: number) => index.file(uri)?.papers[entryIndex]?.authors };
          return doc.lines.flatMap((line, at) => [line.text.length, line.text.length >> 1].map((character) => completions(doc, { line: at, character }, workspace)));
        };
        assert.deepEqual(completing(uncounted, uncountedTerms), completing(counted, countedTerms));
      }),
      { numRuns: 60 },
    );
  });
});

/** The counts of a workspace, its files in the order it gives them, every map in its order. */
function workspaceCounts(terms: WorkspaceTerms): unknown {
  const counts = (map: Map<string, number>) => [...map];
  return {
    files: [...terms.files()].map(([uri, each]) => [uri, ordered(each)]),
    institutions: [...terms.institutions].map(([key, each]) => [key, counts(each.names), counts(each.translations), each.papers]),
    authors: [...terms.authors].map(([key, each]) => [key, counts(each.names), counts(each.forms)]),
    topics: counts(terms.topics),
    keywords: [...terms.keywords].map(([key, forms]) => [key, counts(forms)]),
    categories: counts(terms.categories),
  };
}
