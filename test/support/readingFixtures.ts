/**
 * A small workspace for the reading workflow's tests: two dated digests, the second repeating
 * a paper of the first, and the interests that score them.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Joins paragraphs with blank lines, as a digest is written. */
export function digestText(paragraphs: readonly string[]): string {
  return paragraphs.join('\n\n') + '\n';
}

export const SPARSE_PROBES = [
  'Sparse Probes for Arithmetic Circuits in Small Transformers',
  '小型Transformer中算术电路的稀疏探针',
  'Mei Tanaka, Omar Haddad, Lin Qiu',
  '机构 * Kyoto University（京都大学） ； Tsinghua University（清华大学） 纠错',
  '专题命中 数学推理 ：reasoning(abstract)；math reasoning(title)；分类 cs.LG、cs.CL',
  'AI总结 本文用稀疏探针定位小型Transformer中的加法电路，并验证其可迁移性。',
  'Comments 12 pages, 4 figures. Code: https://example.org/probes',
  'Journal ref Proceedings of an Example Conference, 2026, pp. 1-12',
];

export const SELF_VERIFYING = [
  'Self-Verifying Chains of Thought for Olympiad Geometry',
  '面向奥赛几何的自验证思维链',
  'Ana Souza, Jonas Berg',
  '机构 * University of Toronto（多伦多大学） ； tsinghua  university（清华大学） 纠错',
  '专题命中 数学推理 ：reasoning(abstract)；分类 cs.AI、cs.LG',
  'AI总结 提出一种让模型在每一步检查自身几何推导的思维链方法，在奥赛几何题上提升了正确率。',
  'Comments This paper is arXiv:2605.01234v2; it extends arXiv:2401.00001',
];

export const PROTEIN = [
  'Noisy Labels in Protein Folding Benchmarks',
  '蛋白质折叠基准中的噪声标签',
  'Rui Chen',
  '专题命中 生物 ：protein(title)；分类 q-bio.BM',
  'AI总结 分析蛋白质折叠基准中标签噪声的来源。',
];

export const GRAPH_REWRITING = [
  'Graph Rewriting for Query Planning',
  '面向查询规划的图重写',
  'Ines Duarte, Pavel Novak',
  '专题命中 数据库 ：query planning(title)；分类 cs.DB',
  'AI总结 用图重写规则搜索更优的查询计划。',
];

/** The interests the tests use (as the setting `paperDigest.interests`). */
export const READING_INTERESTS = {
  keywords: [{ term: 'arithmetic', weight: 2 }],
  institutions: ['Tsinghua University'],
  categories: [{ term: 'q-bio.BM', weight: -1 }],
  hideBelow: -1,
};

/** Writes the workspace into a new temporary folder and returns its path. */
export function readingWorkspace(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-reading-'));
  fs.writeFileSync(path.join(root, '2026-05-01.digest'), digestText(['大模型推理能力', ...SPARSE_PROBES, ...SELF_VERIFYING, ...PROTEIN]));
  fs.writeFileSync(path.join(root, '2026-05-02.digest.txt'), digestText(['大模型推理能力', ...SPARSE_PROBES, ...GRAPH_REWRITING]));
  return root;
}
