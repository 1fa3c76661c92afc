/**
 * The arXiv category taxonomy: every current category code with its official English name, a
 * Simplified Chinese name, and the archive it belongs to.
 *
 * The data follows the official taxonomy page (https://arxiv.org/category_taxonomy): 155 codes
 * in 20 archives. A code is either a standalone archive (`quant-ph`, `hep-th`) or an archive and a
 * subject class joined by a dot (`cs.CL`, `cond-mat.mes-hall`). Codes are case-sensitive: the
 * subject class is upper case in `cs`, `math`, `stat`, ... and lower case in `physics` and
 * `cond-mat`, exactly as arXiv spells them.
 *
 * Some categories are aliases of one another on arXiv (`cs.NA` = `math.NA`, `cs.SY` = `eess.SY`,
 * `math.IT` = `cs.IT`, `math.MP` = `math-ph`, `math.ST` = `stat.TH`, `q-fin.EC` = `econ.GN`); both
 * codes of an alias pair are listed, because both appear in papers' category lists.
 *
 * The module depends only on text.ts's comparisons and builds its indexes once, when it is loaded.
 */
import { compatibilityForm, compareText } from './text';

/** One arXiv category. */
export interface ArxivCategory {
  /** The code as arXiv spells it, e.g. `cs.CL`, `physics.comp-ph`, `quant-ph`. */
  readonly code: string;
  /** The official English name, e.g. `Computation and Language`. */
  readonly name: string;
  /** The Simplified Chinese name, e.g. `计算与语言`. */
  readonly nameZh: string;
  /** The English name of the category's archive, e.g. `Computer Science`. */
  readonly archive: string;
}

/** One arXiv archive: the part of a code before the dot, such as `cs` or `q-bio`. */
export interface ArxivArchive {
  /** The official English name, e.g. `Computer Science`. */
  readonly name: string;
  /** The Simplified Chinese name, e.g. `计算机科学`. */
  readonly nameZh: string;
}

/** A row of the category table: code, English name, Chinese name. */
type CategoryRow = readonly [code: string, name: string, nameZh: string];

/** The archives, keyed by prefix, in the order of the official taxonomy page. */
const ARCHIVE_ROWS: ReadonlyArray<readonly [prefix: string, name: string, nameZh: string]> = [
  ['cs', 'Computer Science', '计算机科学'],
  ['econ', 'Economics', '经济学'],
  ['eess', 'Electrical Engineering and Systems Science', '电气工程与系统科学'],
  ['math', 'Mathematics', '数学'],
  ['astro-ph', 'Astrophysics', '天体物理'],
  ['cond-mat', 'Condensed Matter', '凝聚态物理'],
  ['gr-qc', 'General Relativity and Quantum Cosmology', '广义相对论与量子宇宙学'],
  ['hep-ex', 'High Energy Physics - Experiment', '高能物理 - 实验'],
  ['hep-lat', 'High Energy Physics - Lattice', '高能物理 - 格点'],
  ['hep-ph', 'High Energy Physics - Phenomenology', '高能物理 - 唯象'],
  ['hep-th', 'High Energy Physics - Theory', '高能物理 - 理论'],
  ['math-ph', 'Mathematical Physics', '数学物理'],
  ['nlin', 'Nonlinear Sciences', '非线性科学'],
  ['nucl-ex', 'Nuclear Experiment', '核实验'],
  ['nucl-th', 'Nuclear Theory', '核理论'],
  ['physics', 'Physics', '物理学'],
  ['quant-ph', 'Quantum Physics', '量子物理'],
  ['q-bio', 'Quantitative Biology', '定量生物学'],
  ['q-fin', 'Quantitative Finance', '定量金融'],
  ['stat', 'Statistics', '统计学'],
];

/** Every category, in the order of the official taxonomy page. */
const CATEGORY_ROWS: readonly CategoryRow[] = [
  // Computer Science (40).
  ['cs.AI', 'Artificial Intelligence', '人工智能'],
  ['cs.AR', 'Hardware Architecture', '硬件体系结构'],
  ['cs.CC', 'Computational Complexity', '计算复杂性'],
  ['cs.CE', 'Computational Engineering, Finance, and Science', '计算工程、金融与科学'],
  ['cs.CG', 'Computational Geometry', '计算几何'],
  ['cs.CL', 'Computation and Language', '计算与语言'],
  ['cs.CR', 'Cryptography and Security', '密码学与安全'],
  ['cs.CV', 'Computer Vision and Pattern Recognition', '计算机视觉与模式识别'],
  ['cs.CY', 'Computers and Society', '计算机与社会'],
  ['cs.DB', 'Databases', '数据库'],
  ['cs.DC', 'Distributed, Parallel, and Cluster Computing', '分布式、并行与集群计算'],
  ['cs.DL', 'Digital Libraries', '数字图书馆'],
  ['cs.DM', 'Discrete Mathematics', '离散数学'],
  ['cs.DS', 'Data Structures and Algorithms', '数据结构与算法'],
  ['cs.ET', 'Emerging Technologies', '新兴技术'],
  ['cs.FL', 'Formal Languages and Automata Theory', '形式语言与自动机理论'],
  ['cs.GL', 'General Literature', '综合文献'],
  ['cs.GR', 'Graphics', '计算机图形学'],
  ['cs.GT', 'Computer Science and Game Theory', '计算机科学与博弈论'],
  ['cs.HC', 'Human-Computer Interaction', '人机交互'],
  ['cs.IR', 'Information Retrieval', '信息检索'],
  ['cs.IT', 'Information Theory', '信息论'],
  ['cs.LG', 'Machine Learning', '机器学习'],
  ['cs.LO', 'Logic in Computer Science', '计算机科学中的逻辑'],
  ['cs.MA', 'Multiagent Systems', '多智能体系统'],
  ['cs.MM', 'Multimedia', '多媒体'],
  ['cs.MS', 'Mathematical Software', '数学软件'],
  ['cs.NA', 'Numerical Analysis', '数值分析'],
  ['cs.NE', 'Neural and Evolutionary Computing', '神经与演化计算'],
  ['cs.NI', 'Networking and Internet Architecture', '网络与互联网体系结构'],
  ['cs.OH', 'Other Computer Science', '其他计算机科学'],
  ['cs.OS', 'Operating Systems', '操作系统'],
  ['cs.PF', 'Performance', '性能'],
  ['cs.PL', 'Programming Languages', '程序设计语言'],
  ['cs.RO', 'Robotics', '机器人学'],
  ['cs.SC', 'Symbolic Computation', '符号计算'],
  ['cs.SD', 'Sound', '声音'],
  ['cs.SE', 'Software Engineering', '软件工程'],
  ['cs.SI', 'Social and Information Networks', '社会与信息网络'],
  ['cs.SY', 'Systems and Control', '系统与控制'],

  // Economics (3).
  ['econ.EM', 'Econometrics', '计量经济学'],
  ['econ.GN', 'General Economics', '一般经济学'],
  ['econ.TH', 'Theoretical Economics', '理论经济学'],

  // Electrical Engineering and Systems Science (4).
  ['eess.AS', 'Audio and Speech Processing', '音频与语音处理'],
  ['eess.IV', 'Image and Video Processing', '图像与视频处理'],
  ['eess.SP', 'Signal Processing', '信号处理'],
  ['eess.SY', 'Systems and Control', '系统与控制'],

  // Mathematics (32).
  ['math.AC', 'Commutative Algebra', '交换代数'],
  ['math.AG', 'Algebraic Geometry', '代数几何'],
  ['math.AP', 'Analysis of PDEs', '偏微分方程分析'],
  ['math.AT', 'Algebraic Topology', '代数拓扑'],
  ['math.CA', 'Classical Analysis and ODEs', '经典分析与常微分方程'],
  ['math.CO', 'Combinatorics', '组合数学'],
  ['math.CT', 'Category Theory', '范畴论'],
  ['math.CV', 'Complex Variables', '复变函数'],
  ['math.DG', 'Differential Geometry', '微分几何'],
  ['math.DS', 'Dynamical Systems', '动力系统'],
  ['math.FA', 'Functional Analysis', '泛函分析'],
  ['math.GM', 'General Mathematics', '一般数学'],
  ['math.GN', 'General Topology', '一般拓扑学'],
  ['math.GR', 'Group Theory', '群论'],
  ['math.GT', 'Geometric Topology', '几何拓扑'],
  ['math.HO', 'History and Overview', '数学史与概论'],
  ['math.IT', 'Information Theory', '信息论'],
  ['math.KT', 'K-Theory and Homology', 'K理论与同调'],
  ['math.LO', 'Logic', '数理逻辑'],
  ['math.MG', 'Metric Geometry', '度量几何'],
  ['math.MP', 'Mathematical Physics', '数学物理'],
  ['math.NA', 'Numerical Analysis', '数值分析'],
  ['math.NT', 'Number Theory', '数论'],
  ['math.OA', 'Operator Algebras', '算子代数'],
  ['math.OC', 'Optimization and Control', '优化与控制'],
  ['math.PR', 'Probability', '概率论'],
  ['math.QA', 'Quantum Algebra', '量子代数'],
  ['math.RA', 'Rings and Algebras', '环与代数'],
  ['math.RT', 'Representation Theory', '表示论'],
  ['math.SG', 'Symplectic Geometry', '辛几何'],
  ['math.SP', 'Spectral Theory', '谱理论'],
  ['math.ST', 'Statistics Theory', '统计理论'],

  // Astrophysics (6).
  ['astro-ph.CO', 'Cosmology and Nongalactic Astrophysics', '宇宙学与河外天体物理'],
  ['astro-ph.EP', 'Earth and Planetary Astrophysics', '地球与行星天体物理'],
  ['astro-ph.GA', 'Astrophysics of Galaxies', '星系天体物理'],
  ['astro-ph.HE', 'High Energy Astrophysical Phenomena', '高能天体物理现象'],
  ['astro-ph.IM', 'Instrumentation and Methods for Astrophysics', '天体物理仪器与方法'],
  ['astro-ph.SR', 'Solar and Stellar Astrophysics', '太阳与恒星天体物理'],

  // Condensed Matter (9).
  ['cond-mat.dis-nn', 'Disordered Systems and Neural Networks', '无序系统与神经网络'],
  ['cond-mat.mes-hall', 'Mesoscale and Nanoscale Physics', '介观与纳米尺度物理'],
  ['cond-mat.mtrl-sci', 'Materials Science', '材料科学'],
  ['cond-mat.other', 'Other Condensed Matter', '其他凝聚态物理'],
  ['cond-mat.quant-gas', 'Quantum Gases', '量子气体'],
  ['cond-mat.soft', 'Soft Condensed Matter', '软凝聚态物质'],
  ['cond-mat.stat-mech', 'Statistical Mechanics', '统计力学'],
  ['cond-mat.str-el', 'Strongly Correlated Electrons', '强关联电子'],
  ['cond-mat.supr-con', 'Superconductivity', '超导'],

  // Standalone physics archives (1 each).
  ['gr-qc', 'General Relativity and Quantum Cosmology', '广义相对论与量子宇宙学'],
  ['hep-ex', 'High Energy Physics - Experiment', '高能物理 - 实验'],
  ['hep-lat', 'High Energy Physics - Lattice', '高能物理 - 格点'],
  ['hep-ph', 'High Energy Physics - Phenomenology', '高能物理 - 唯象'],
  ['hep-th', 'High Energy Physics - Theory', '高能物理 - 理论'],
  ['math-ph', 'Mathematical Physics', '数学物理'],

  // Nonlinear Sciences (5).
  ['nlin.AO', 'Adaptation and Self-Organizing Systems', '适应与自组织系统'],
  ['nlin.CD', 'Chaotic Dynamics', '混沌动力学'],
  ['nlin.CG', 'Cellular Automata and Lattice Gases', '元胞自动机与格子气'],
  ['nlin.PS', 'Pattern Formation and Solitons', '斑图形成与孤子'],
  ['nlin.SI', 'Exactly Solvable and Integrable Systems', '严格可解与可积系统'],

  // Standalone nuclear archives (1 each).
  ['nucl-ex', 'Nuclear Experiment', '核实验'],
  ['nucl-th', 'Nuclear Theory', '核理论'],

  // Physics (22).
  ['physics.acc-ph', 'Accelerator Physics', '加速器物理'],
  ['physics.ao-ph', 'Atmospheric and Oceanic Physics', '大气与海洋物理'],
  ['physics.app-ph', 'Applied Physics', '应用物理'],
  ['physics.atm-clus', 'Atomic and Molecular Clusters', '原子与分子团簇'],
  ['physics.atom-ph', 'Atomic Physics', '原子物理'],
  ['physics.bio-ph', 'Biological Physics', '生物物理'],
  ['physics.chem-ph', 'Chemical Physics', '化学物理'],
  ['physics.class-ph', 'Classical Physics', '经典物理'],
  ['physics.comp-ph', 'Computational Physics', '计算物理'],
  ['physics.data-an', 'Data Analysis, Statistics and Probability', '数据分析、统计与概率'],
  ['physics.ed-ph', 'Physics Education', '物理教育'],
  ['physics.flu-dyn', 'Fluid Dynamics', '流体动力学'],
  ['physics.gen-ph', 'General Physics', '普通物理'],
  ['physics.geo-ph', 'Geophysics', '地球物理'],
  ['physics.hist-ph', 'History and Philosophy of Physics', '物理学史与物理哲学'],
  ['physics.ins-det', 'Instrumentation and Detectors', '仪器与探测器'],
  ['physics.med-ph', 'Medical Physics', '医学物理'],
  ['physics.optics', 'Optics', '光学'],
  ['physics.plasm-ph', 'Plasma Physics', '等离子体物理'],
  ['physics.pop-ph', 'Popular Physics', '科普物理'],
  ['physics.soc-ph', 'Physics and Society', '物理与社会'],
  ['physics.space-ph', 'Space Physics', '空间物理'],

  // Quantum Physics (standalone).
  ['quant-ph', 'Quantum Physics', '量子物理'],

  // Quantitative Biology (10).
  ['q-bio.BM', 'Biomolecules', '生物分子'],
  ['q-bio.CB', 'Cell Behavior', '细胞行为'],
  ['q-bio.GN', 'Genomics', '基因组学'],
  ['q-bio.MN', 'Molecular Networks', '分子网络'],
  ['q-bio.NC', 'Neurons and Cognition', '神经元与认知'],
  ['q-bio.OT', 'Other Quantitative Biology', '其他定量生物学'],
  ['q-bio.PE', 'Populations and Evolution', '种群与进化'],
  ['q-bio.QM', 'Quantitative Methods', '定量方法'],
  ['q-bio.SC', 'Subcellular Processes', '亚细胞过程'],
  ['q-bio.TO', 'Tissues and Organs', '组织与器官'],

  // Quantitative Finance (9).
  ['q-fin.CP', 'Computational Finance', '计算金融'],
  ['q-fin.EC', 'Economics', '经济学'],
  ['q-fin.GN', 'General Finance', '一般金融'],
  ['q-fin.MF', 'Mathematical Finance', '数理金融'],
  ['q-fin.PM', 'Portfolio Management', '投资组合管理'],
  ['q-fin.PR', 'Pricing of Securities', '证券定价'],
  ['q-fin.RM', 'Risk Management', '风险管理'],
  ['q-fin.ST', 'Statistical Finance', '统计金融'],
  ['q-fin.TR', 'Trading and Market Microstructure', '交易与市场微观结构'],

  // Statistics (6).
  ['stat.AP', 'Applications', '统计应用'],
  ['stat.CO', 'Computation', '统计计算'],
  ['stat.ME', 'Methodology', '统计方法论'],
  ['stat.ML', 'Machine Learning', '机器学习'],
  ['stat.OT', 'Other Statistics', '其他统计学'],
  ['stat.TH', 'Statistics Theory', '统计理论'],
];

/**
 * The archives, keyed by the prefix that opens a code (`cs`, `math`, `q-bio`, `hep-th`, ...).
 *
 * @example archives.get('q-bio') // { name: 'Quantitative Biology', nameZh: '定量生物学' }
 */
export const archives: ReadonlyMap<string, ArxivArchive> = new Map(
  ARCHIVE_ROWS.map(([prefix, name, nameZh]) => [prefix, Object.freeze({ name, nameZh })]),
);

/**
 * The archive prefix of a code: the part before the first dot, or the whole code when it has no
 * dot. The code need not be known.
 *
 * @example archivePrefix('cond-mat.mes-hall') // 'cond-mat'
 * @example archivePrefix('quant-ph') // 'quant-ph'
 */
export function archivePrefix(code: string): string {
  const dot = code.indexOf('.');
  return dot < 0 ? code : code.slice(0, dot);
}

/** Every category, in the order of the official taxonomy page (archive by archive). */
export const ALL_CATEGORIES: readonly ArxivCategory[] = Object.freeze(
  CATEGORY_ROWS.map(([code, name, nameZh]): ArxivCategory => {
    const archive = archives.get(archivePrefix(code));
    if (archive === undefined) {
      throw new Error(`The taxonomy lists ${code}, whose archive is not in the archive table.`);
    }
    return Object.freeze({ code, name, nameZh, archive: archive.name });
  }),
);

/** The categories keyed by their exact code. */
const categoriesByCode: ReadonlyMap<string, ArxivCategory> = new Map(
  ALL_CATEGORIES.map((category) => [category.code, category]),
);

/** The categories keyed by their lower-cased code; no two codes differ only in case. */
const categoriesByLowerCaseCode: ReadonlyMap<string, ArxivCategory> = new Map(
  ALL_CATEGORIES.map((category) => [category.code.toLowerCase(), category]),
);

/**
 * The category with exactly this code, compared case-sensitively, in constant time.
 *
 * @example categoryByCode('cs.CL')?.name // 'Computation and Language'
 * @example categoryByCode('cs.cl') // undefined (use categoryIgnoringCase for that)
 */
export function categoryByCode(code: string): ArxivCategory | undefined {
  return categoriesByCode.get(code);
}

/**
 * The category whose code equals this one when case is ignored, so that a miscased code can be
 * reported together with its correct spelling.
 *
 * @example categoryIgnoringCase('CS.lg')?.code // 'cs.LG'
 * @example categoryIgnoringCase('PHYSICS.COMP-PH')?.code // 'physics.comp-ph'
 */
export function categoryIgnoringCase(code: string): ArxivCategory | undefined {
  return categoriesByLowerCaseCode.get(code.toLowerCase());
}

/**
 * The known category a code written in full-width characters stands for, in whatever case
 * (`ｃｓ．ＬＧ`, `cs.ＬＧ` → cs.LG), as the Papers view groups it; undefined for any other code.
 *
 * @example categoryInFullWidth('ｃｓ．ｌｇ')?.code // 'cs.LG'
 * @example categoryInFullWidth('cs.lg') // undefined: no full-width character
 */
export function categoryInFullWidth(code: string): ArxivCategory | undefined {
  const plain = compatibilityForm(code);
  return plain === code ? undefined : categoryIgnoringCase(plain);
}

/**
 * The known categories closest to a (typically unknown) code, best first, for "did you mean"
 * suggestions.
 *
 * Closeness is the case-insensitive Damerau-Levenshtein distance (optimal string alignment:
 * insertions, deletions, substitutions and swaps of two adjacent characters each cost 1). Only
 * categories within `max(2, floor(code.length / 3))` of the code are returned. Ties are broken by
 * preferring categories of the same archive as the code, then by code in ordinal order. A known
 * code, in any case, is its own nearest category.
 *
 * @param code The code to find suggestions for, as written.
 * @param limit The most suggestions to return; 3 unless told.
 * @example nearestCategories('cs.CLL').map((c) => c.code) // ['cs.CL', ...]
 * @example nearestCategories('math.OCC', 1).map((c) => c.code) // ['math.OC']
 * @example nearestCategories('zzzzzzzz') // []
 */
export function nearestCategories(code: string, limit = 3): ArxivCategory[] {
  if (limit <= 0) {
    return [];
  }
  const query = code.toLowerCase();
  const maximumDistance = Math.max(2, Math.floor(code.length / 3));
  const queryArchive = archivePrefix(query);
  const candidates: Array<{ category: ArxivCategory; distance: number; sameArchive: boolean }> = [];
  for (let k = 0; k < ALL_CATEGORIES.length; k++) {
    const candidate = LOWER_CASE_CODES[k];
    // The distance is at least the difference in length, so far-off lengths need no computing.
    if (Math.abs(candidate.length - query.length) > maximumDistance) {
      continue;
    }
    const distance = damerauLevenshteinDistance(query, candidate, maximumDistance);
    if (distance <= maximumDistance) {
      candidates.push({ category: ALL_CATEGORIES[k], distance, sameArchive: LOWER_CASE_ARCHIVES[k] === queryArchive });
    }
  }
  candidates.sort(
    (a, b) =>
      a.distance - b.distance ||
      Number(b.sameArchive) - Number(a.sameArchive) ||
      compareText(a.category.code, b.category.code),
  );
  return candidates.slice(0, limit).map((candidate) => candidate.category);
}

/** The codes of `ALL_CATEGORIES` in lower case, and their archives: made once, not for every code looked up. */
const LOWER_CASE_CODES: readonly string[] = ALL_CATEGORIES.map((category) => category.code.toLowerCase());
const LOWER_CASE_ARCHIVES: readonly string[] = LOWER_CASE_CODES.map(archivePrefix);

/** The shape of one part of a code: a letter, then letters, digits and hyphens. */
const CODE_PART_SHAPE = /^[A-Za-z][A-Za-z0-9-]*$/;

/**
 * Whether the text has the shape of an arXiv category code, known or not: an archive
 * (`quant-ph`), or an archive and a subject class joined by one dot (`cs.CL`). Each part starts
 * with a letter, holds only ASCII letters, digits and hyphens, and does not end with a hyphen. Case
 * is not checked, so that miscased codes can be recognised as codes. Surrounding whitespace is not
 * allowed.
 *
 * @example isCategoryLike('cs.XX') // true (unknown, but shaped like a code)
 * @example isCategoryLike('cond-mat.mes-hall') // true
 * @example isCategoryLike('2401.12345') // false (an arXiv identifier, not a category)
 * @example isCategoryLike('cs.') // false
 */
export function isCategoryLike(text: string): boolean {
  const parts = text.split('.');
  return (
    parts.length <= 2 &&
    parts.every((part) => CODE_PART_SHAPE.test(part) && !part.endsWith('-'))
  );
}

/**
 * The optimal-string-alignment Damerau-Levenshtein distance between two strings: the fewest
 * insertions, deletions, substitutions and adjacent transpositions turning one into the other,
 * where no substring is edited twice. With `atMost`, any distance past it may be given as
 * `atMost + 1`: the table stops once two rows in a row are all past it (a later cell comes from
 * one of the two rows before it, plus at least nothing), so that an unknown code far from every
 * category costs a few rows a category. Exported for the tests, which compare it with the plain
 * table.
 *
 * @example damerauLevenshteinDistance('cs.lg', 'cs.gl') // 1
 * @example damerauLevenshteinDistance('abcdef', 'uvwxyz', 2) // 3
 */
export function damerauLevenshteinDistance(a: string, b: string, atMost = Infinity): number {
  const width = b.length + 1;
  if (rows.length < 3 * width) {
    rows = new Int32Array(3 * width * 2);
  }
  // Three rows of the table, reused from call to call: the row before last (for swaps), the last
  // row, and the current one.
  let beforePrevious = 0;
  let previous = width;
  let current = 2 * width;
  for (let j = 0; j < width; j++) rows[previous + j] = j;
  let previousPast = false;
  for (let i = 1; i <= a.length; i++) {
    rows[current] = i;
    let rowMinimum = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j < width; j++) {
      const bj = b.charCodeAt(j - 1);
      let distance = Math.min(rows[previous + j] + 1, rows[current + j - 1] + 1, rows[previous + j - 1] + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        distance = Math.min(distance, rows[beforePrevious + j - 2] + 1);
      }
      rows[current + j] = distance;
      if (distance < rowMinimum) rowMinimum = distance;
    }
    const past = rowMinimum > atMost;
    if (past && previousPast) {
      return atMost + 1;
    }
    previousPast = past;
    const free = beforePrevious;
    beforePrevious = previous;
    previous = current;
    current = free;
  }
  return rows[previous + b.length];
}

/** The rows `damerauLevenshteinDistance` works in (grown for longer strings). */
let rows = new Int32Array(96);
