/**
 * The glossary of a digest's fixed vocabulary: its labels (`机构`, `专题命中`, `分类`, `AI总结`,
 * `Comments`, `Journal ref`, the `纠错` marker), the names of its fields in both languages, and
 * the fields a topic hit can name (`abstract` → `摘要`, `title` → `标题`, ...).
 *
 * Pure data and lookups; the hover renders it.
 */
import { LABELS } from '../model';
import type { FieldKind } from '../model';

/** What a label means, in both languages. */
export interface LabelMeaning {
  /** The label as the format spells it, e.g. `专题命中`. */
  readonly label: string;
  /** Its meaning in English, e.g. `Topic hits`. */
  readonly english: string;
  /** Its meaning in Chinese: the label itself for Chinese labels, a translation for English ones. */
  readonly chinese: string;
  /** One or two sentences on what follows the label. */
  readonly explanation: string;
  /** The same in Chinese, for the message language `zh-cn`. */
  readonly explanationZh: string;
}

/** The star after `机构`. Not in `LABELS`: it is punctuation, not a word. */
export const STAR = '*';

/**
 * The labels of the format, keyed like `LABELS`, plus the `*` that follows `机构`.
 *
 * @example LABEL_MEANINGS.topicHits.english // 'Topic hits'
 */
export const LABEL_MEANINGS = {
  institutions: {
    label: LABELS.institutions,
    english: 'Institutions',
    chinese: LABELS.institutions,
    explanation:
      'The authors\u2019 institutions, separated by \u201c ； \u201d, each as \u201cEnglish name（中文名）\u201d or an English name alone. Some services list the authors here instead, as \u201cA, B（甲、乙）\u201d.',
    explanationZh: '作者所在的机构，以“ ； ”分隔，每项写作“English name（中文名）”或只写英文名。有些服务在这里列出的是作者，写作“A, B（甲、乙）”。',
  },
  topicHits: {
    label: LABELS.topicHits,
    english: 'Topic hits',
    chinese: LABELS.topicHits,
    explanation:
      'Why the paper is in this digest: the sub-topic it matched, then each keyword that matched with the part of the paper it matched in, then the arXiv categories after 分类.',
    explanationZh: '论文为何收入本期摘要集：它命中的子专题，然后是每个命中的关键词及其命中的论文部分，最后是“分类”之后的 arXiv 分类。',
  },
  categories: {
    label: LABELS.categories,
    english: 'Categories',
    chinese: LABELS.categories,
    explanation: 'The paper\u2019s arXiv categories, separated by \u201c、\u201d, primary category first.',
    explanationZh: '论文的 arXiv 分类，以“、”分隔，主分类在前。',
  },
  summary: {
    label: LABELS.summary,
    english: 'AI summary',
    chinese: LABELS.summary,
    explanation: 'A one-paragraph summary of the paper in Chinese, written by the digest service\u2019s language model, not by the authors.',
    explanationZh: '论文的一段中文总结，由摘要集服务的语言模型撰写，而非作者所写。',
  },
  comments: {
    label: LABELS.comments,
    english: 'Comments',
    chinese: '备注',
    explanation: 'The arXiv comments field as the authors wrote it: pages, figures, venue, links and references to other arXiv papers.',
    explanationZh: '作者所写的 arXiv 备注字段：页数、图表、发表场合、链接以及对其他 arXiv 论文的引用。',
  },
  journalRef: {
    label: LABELS.journalRef,
    english: 'Journal reference',
    chinese: '期刊引用',
    explanation: 'Where the paper has been published (journal or proceedings), from arXiv\u2019s journal-ref field.',
    explanationZh: '论文已发表之处（期刊或会议论文集），取自 arXiv 的 journal-ref 字段。',
  },
  reportMarker: {
    label: LABELS.reportMarker,
    english: 'Report an error',
    chinese: LABELS.reportMarker,
    explanation:
      'A link text left over from the web page the digest was copied from (\u201creport an error\u201d). It closes the 机构 line and carries no information.',
    explanationZh: '复制摘要集时从网页上留下的链接文字（“纠错”）。它结束“机构”一行，不带任何信息。',
  },
  star: {
    label: STAR,
    english: 'Institutions marker',
    chinese: '机构标记',
    explanation: 'Part of the canonical opening \u201c机构 * \u201d of the institutions line, copied from the web page; it carries no information.',
    explanationZh: '机构行规范开头“机构 * ”的一部分，从网页上复制而来；不带任何信息。',
  },
} as const satisfies Record<string, LabelMeaning>;

export type LabelName = keyof typeof LABEL_MEANINGS;

const BY_WRITTEN_FORM: ReadonlyMap<string, LabelMeaning> = new Map<string, LabelMeaning>([
  ...Object.values(LABEL_MEANINGS).map((meaning): [string, LabelMeaning] => [normaliseLabel(meaning.label), meaning]),
  ['＊', LABEL_MEANINGS.star],
]);

/**
 * The meaning of a label as written in a document. Spaces and the case of Latin letters are
 * ignored, so `AI 总结` and `journal ref` are found too.
 *
 * @example labelMeaning('AI 总结')?.english // 'AI summary'
 * @example labelMeaning('Comments')?.chinese // '备注'
 * @example labelMeaning('摘要') // undefined
 */
export function labelMeaning(written: string): LabelMeaning | undefined {
  return BY_WRITTEN_FORM.get(normaliseLabel(written));
}

function normaliseLabel(text: string): string {
  return text.replace(/\s+/g, '').toLowerCase();
}

/** What the first paragraph of a digest is. */
export const HEADING_MEANING: LabelMeaning = {
  label: '',
  english: 'Digest subject',
  chinese: '订阅主题',
  explanation: 'The subject this digest follows; every paper below was selected for it.',
  explanationZh: '本摘要集所关注的主题；下面的每篇论文都是为它挑选的。',
};

/** What the word after `专题命中` is. */
export const TOPIC_MEANING: LabelMeaning = {
  label: '',
  english: 'Topic',
  chinese: '专题',
  explanation: 'The sub-topic of the digest under which this paper was selected; the hits after \u201c：\u201d say which keywords matched where.',
  explanationZh: '本论文入选时所属的摘要集子专题；“：”之后的命中说明哪些关键词在哪里命中。',
};

/** The name of each kind of field in both languages. */
export const FIELD_NAMES: Readonly<Record<FieldKind, { readonly english: string; readonly chinese: string }>> = {
  englishTitle: { english: 'English title', chinese: '英文标题' },
  chineseTitle: { english: 'Chinese title', chinese: '中文标题' },
  authors: { english: 'Authors', chinese: '作者' },
  institutions: { english: 'Institutions', chinese: '机构' },
  topicHits: { english: 'Topic hits', chinese: '专题命中' },
  summary: { english: 'AI summary', chinese: 'AI总结' },
  comments: { english: 'Comments', chinese: '备注' },
  journalRef: { english: 'Journal reference', chinese: '期刊引用' },
};

/** A part of a paper that a topic hit can name in its `(field)`. */
export interface HitFieldMeaning {
  /** The field as digests write it, e.g. `abstract`. */
  readonly field: string;
  /** Its Chinese name, e.g. `摘要`. */
  readonly chinese: string;
  /** What the keyword matched, e.g. `the paper's abstract`. */
  readonly english: string;
}

/** The fields topic hits name, by their written form. */
export const HIT_FIELDS: readonly HitFieldMeaning[] = [
  { field: 'abstract', chinese: '摘要', english: 'the paper\u2019s abstract' },
  { field: 'title', chinese: '标题', english: 'the paper\u2019s title' },
  { field: 'comments', chinese: '备注', english: 'the arXiv comments field' },
  { field: 'authors', chinese: '作者', english: 'the author list' },
  { field: 'keywords', chinese: '关键词', english: 'the paper\u2019s keywords' },
];

const HIT_FIELDS_BY_NAME: ReadonlyMap<string, HitFieldMeaning> = new Map(HIT_FIELDS.map((meaning) => [meaning.field, meaning]));

/**
 * The meaning of a hit's field as written, ignoring case and surrounding spaces.
 *
 * @example hitFieldMeaning('abstract')?.chinese // '摘要'
 * @example hitFieldMeaning('Title')?.chinese // '标题'
 * @example hitFieldMeaning('body') // undefined
 */
export function hitFieldMeaning(written: string): HitFieldMeaning | undefined {
  return HIT_FIELDS_BY_NAME.get(written.trim().toLowerCase());
}
