/**
 * The Papers tree's own words (the groups of papers without a value, the *For you* bands, the
 * pages of a big group, the reasons of a paper's score, the name of a paper without a title) and the reading CodeLenses' titles in the message language. The tree is built in English (tree.ts); its
 * nodes are put into the language as they are sent, so that one cached tree serves every
 * language. Document text (topics, institutions, file names) is never touched.
 */
import { bilingual, Bilingual, MessageLanguage, pick } from './messages';
import type { PapersGroupKind, PapersGroupNode, PaperNode } from './features/tree';
import { UNKNOWN_CATEGORY_DETAIL } from './features/tree';
import type { CodeLens } from 'vscode-languageserver-types';
import { LENS_COMMANDS } from './reading/documentFeatures';
import { localizedReasons } from './reading/readingMessages';
import { untitledPaperName, untitledPaperNumber } from './features/entries';

const MISSING: Partial<Record<PapersGroupKind, Bilingual>> = {
  topic: bilingual('(no topic)', '（无专题）'),
  keyword: bilingual('(no keyword hits)', '（无命中关键词）'),
  category: bilingual('(no category)', '（无分类）'),
  institution: bilingual('(no institution)', '（无机构）'),
  file: bilingual('(no file)', '（无文件）'),
};

/** The *For you* bands by the last part of their id. */
const NOT_IN_TAXONOMY = bilingual(UNKNOWN_CATEGORY_DETAIL, '不在 arXiv 分类体系中');

const BANDS: Record<string, { label: Bilingual; detail: Bilingual }> = {
  high: { label: bilingual('Recommended', '推荐'), detail: bilingual('matches your interests', '符合你的兴趣') },
  zero: { label: bilingual('Other papers', '其他论文'), detail: bilingual('no interest matched', '没有匹配的兴趣') },
  low: { label: bilingual('Pushed down', '靠后'), detail: bilingual('negative interests', '负向兴趣') },
};

/** The detail of the *For you* band of papers no interest matched, when no interest is set at all. */
const NO_INTERESTS_SET = bilingual(
  'no interests set yet: add keywords, topics, categories, authors or institutions to the setting paperDigest.interests (or to .paper-digest/interests.json, which the command line reads too)',
  '尚未设置兴趣：请在设置 paperDigest.interests（或命令行也读取的 .paper-digest/interests.json）中添加关键词、专题、分类、作者或机构',
);

/**
 * The *For you* band of papers no interest matched, saying how to set interests when none is set
 * (every paper is in it then, and "no interest matched" said nothing of why); other nodes as they are.
 *
 * @example withoutInterests({ kind: 'group', groupKind: 'score', id: 'score:zero', ... }, 'en').detail // 'no interests set yet: …'
 */
export function withoutInterests<T extends PapersGroupNode | PaperNode>(node: T, language: MessageLanguage): T {
  if (node.kind !== 'group' || (node as PapersGroupNode).groupKind !== 'score' || !node.id.endsWith(':zero')) {
    return node;
  }
  return { ...node, detail: pick(NO_INTERESTS_SET, language) };
}

/**
 * A node of the tree with its own words in `language` (`both` keeps the English of today).
 *
 * @example localizedNode({ kind: 'group', groupKind: 'score', id: 'score:high', label: 'Recommended', ... }, 'zh-cn').label // '推荐'
 */
export function localizedNode<T extends PapersGroupNode | PaperNode>(node: T, language: MessageLanguage): T {
  if (node.kind === 'paper') {
    // The reasons of its score, for the tooltip (reading/readingMessages.ts).
    const paper = node as PaperNode;
    const localized = language === 'both' || !paper.reasons || paper.reasons.length === 0 ? node : { ...node, reasons: localizedReasons(paper.reasons, language) };
    // A paper without either title is named by its place, in English in the index.
    const number = language === 'zh-cn' ? untitledNumber(paper) : undefined;
    return number === undefined ? localized : { ...localized, title: untitledPaperName(number, language) };
  }
  const group = node as PapersGroupNode;
  if (group.groupKind === 'category' && group.detail === UNKNOWN_CATEGORY_DETAIL && language !== 'en') {
    // Beside the known codes' names in both languages (`Machine Learning · 机器学习`).
    return { ...node, detail: language === 'zh-cn' ? NOT_IN_TAXONOMY.zh : `${NOT_IN_TAXONOMY.en} · ${NOT_IN_TAXONOMY.zh}` };
  }
  if (language !== 'zh-cn') {
    return node;
  }
  if (group.missing && MISSING[group.groupKind]) {
    return { ...node, label: pick(MISSING[group.groupKind]!, language) };
  }
  if (group.groupKind === 'score') {
    const band = BANDS[group.id.slice(group.id.lastIndexOf(':') + 1)];
    return band ? { ...node, label: pick(band.label, language), detail: pick(band.detail, language) } : node;
  }
  if (group.groupKind === 'page') {
    const range = /^Papers (\d+)–(\d+)$/.exec(group.label);
    return range ? { ...node, label: `论文 ${range[1]}–${range[2]}` } : node;
  }
  return node;
}

/**
 * The number of a paper that has neither title (the index names it `(untitled paper N)` and keys
 * it `untitled`, workspaceIndex.ts), else undefined: a title written that way is kept as written.
 */
function untitledNumber(paper: PaperNode): number | undefined {
  return paper.chineseTitle === '' && UNTITLED_ID.test(paper.id) ? untitledPaperNumber(paper.title) : undefined;
}

const UNTITLED_ID = /#untitled#\d+$/;

/** The CodeLens titles above each paper, by the command they run. */
const LENS_TITLES: Record<string, Bilingual> = {
  [LENS_COMMANDS.star]: bilingual('☆ Star', '☆ 加星标'),
  [LENS_COMMANDS.unstar]: bilingual('★ Unstar', '★ 取消星标'),
  [LENS_COMMANDS.markRead]: bilingual('Mark read', '标记为已读'),
  [LENS_COMMANDS.markUnread]: bilingual('Mark unread', '标记为未读'),
  [LENS_COMMANDS.openOnArxiv]: bilingual('Open on arXiv', '在 arXiv 上打开'),
  [LENS_COMMANDS.copyBibtex]: bilingual('Copy BibTeX', '复制 BibTeX'),
};

/**
 * The reading CodeLenses with their titles in `language` (`both` keeps the English of today, a
 * lens title being too short for two languages).
 *
 * @example localizedLenses([{ range, command: { title: '☆ Star', command: 'paperDigest.star' } }], 'zh-cn')[0].command.title // '☆ 加星标'
 */
export function localizedLenses(lenses: readonly CodeLens[], language: MessageLanguage): CodeLens[] {
  return lenses.map((lens) => {
    const title = lens.command && LENS_TITLES[lens.command.command];
    return title && language === 'zh-cn' ? { ...lens, command: { ...lens.command!, title: pick(title, language) } } : lens;
  });
}
