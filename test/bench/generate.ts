/**
 * Generates large, realistic digests for the benchmark and the robustness tests: every entry has
 * every field, with varied titles, long author lists and several institutions.
 */

const WORDS = ['Sparse', 'Probes', 'Reasoning', 'Arithmetic', 'Circuits', 'Transformers', 'Scaling', 'Verifier', 'Feedback', 'Distillation', 'Policy', 'Rollouts', 'Latent', 'Chain-of-Thought', 'Agents', 'Mathematical', 'Benchmarks', 'Efficient', 'Robust', 'Language'];
const ZH = ['稀疏', '探针', '推理', '算术', '电路', '缩放', '验证器', '反馈', '蒸馏', '策略', '潜在', '思维链', '智能体', '数学', '基准', '高效', '鲁棒', '语言模型'];
const NAMES = ['Mei Tanaka', 'Omar Haddad', 'Lin Qiu', 'Ana María de la Cruz', 'Jean-Luc Martin', 'K. R. Rao', 'Wei Zhang', 'Sofia Rossi', 'Lukas Becker', 'Priya Natarajan'];
const INSTITUTIONS = ['Kyoto University（京都大学）', 'Tsinghua University（清华大学）', 'Fudan University（复旦大学）', "Huawei Noah's Ark Lab (Montreal), Canada（华为诺亚实验室（蒙特利尔））", 'ExampleLab'];
const CATEGORIES = ['cs.CL', 'cs.AI', 'cs.LG', 'math.OC', 'stat.ML', 'cs.CV'];

function pick<T>(items: readonly T[], seed: number, count: number): T[] {
  const result: T[] = [];
  for (let i = 0; i < count; i++) {
    result.push(items[(seed * 7 + i * 13) % items.length]);
  }
  return result;
}

/** The paragraphs of entry number `i`. */
export function generatedEntry(i: number): string[] {
  return [
    `${pick(WORDS, i, 6).join(' ')} ${i}`,
    `${pick(ZH, i, 8).join('')}${i}`,
    pick(NAMES, i, 4 + (i % 9)).join(', '),
    `机构 * ${pick(INSTITUTIONS, i, 1 + (i % 3)).join(' ； ')} 纠错`,
    `专题命中 数学推理 ：reasoning(abstract)；math reasoning(title)；分类 ${pick(CATEGORIES, i, 1 + (i % 3)).join('、')}`,
    `AI总结 ${pick(ZH, i + 3, 40).join('')}，并在多个基准上验证了方法的有效性。`,
    `Comments ${8 + (i % 20)} pages, ${i % 7} figures. Code: https://example.org/p/${i}, see arXiv:2401.${String(10000 + i).slice(-5)}`,
  ];
}

/** A digest of `count` entries, about 750 bytes of UTF-8 each. */
export function generatedDigest(count: number): string {
  const paragraphs = ['大模型推理能力'];
  for (let i = 0; i < count; i++) {
    paragraphs.push(...generatedEntry(i));
  }
  return paragraphs.join('\n\n') + '\n';
}

/**
 * Lines built to make line-oriented code slow, about `size` characters each: long runs of
 * spaces, brackets that never close, separators and labels repeated, URLs back to back.
 */
export function hostileLines(size: number): Record<string, string> {
  const repeat = (prefix: string, unit: string): string => prefix + unit.repeat(Math.ceil((size - prefix.length) / unit.length));
  return {
    'institutions': repeat('机构 * ', 'Lab (X)（实验室（分部）、甲） ；  ；;（（ ）） 纠错 '),
    'unclosed （': repeat('机构 * ', '（'),
    'spaces': repeat('机构 * ', ' ') + 'x',
    'topic hits': repeat('专题命中 推理 ：', 'kw(abstract)；a(（b；(  分类 cs.LG、,'),
    'comments': repeat('Comments ', 'https://x.org/a arXiv:2401.12345 （'),
  };
}
