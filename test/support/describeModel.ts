/**
 * A readable dump of a parsed digest, for golden files: one line per element, each with its
 * range as `line:col-line:col` and its text.
 */
import type { DigestDocument, Field, Range, Span } from '../../server/src/service/model';

function r(range: Range): string {
  return `${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}`;
}

function s(span: Span | undefined): string {
  return span ? `${r(span.range)} ${JSON.stringify(span.text)}` : '-';
}

/** Renders the model as indented text. */
export function describeModel(doc: DigestDocument): string {
  const out: string[] = [];
  out.push(`bom=${doc.hasBom} eol=${JSON.stringify(doc.eol)} lines=${doc.lines.length} paragraphs=${doc.paragraphs.length}`);
  out.push(`heading ${s(doc.heading)}`);
  for (const stray of doc.strayLines) {
    out.push(`stray ${s(stray)}`);
  }
  for (const entry of doc.entries) {
    out.push(`entry ${entry.index} ${r(entry.range)}`);
    for (const field of entry.fields) {
      out.push(...describeField(field).map((line) => '  ' + line));
    }
    for (const stray of entry.strayLines) {
      out.push(`  stray ${s(stray)}`);
    }
  }
  for (const problem of doc.problems) {
    const extra = [
      problem.field ? `field=${problem.field}` : '',
      problem.entryIndex !== undefined ? `entry=${problem.entryIndex}` : '',
      problem.insertBeforeLine !== undefined ? `before=${problem.insertBeforeLine}` : '',
      problem.insertAfterLine !== undefined ? `after=${problem.insertAfterLine}` : '',
    ].filter((x) => x);
    out.push(`problem ${problem.kind} ${r(problem.range)} ${extra.join(' ')}`.trimEnd());
  }
  return out.join('\n') + '\n';
}

function describeField(field: Field): string[] {
  const head = `${field.kind} ${r(field.range)}`;
  switch (field.kind) {
    case 'englishTitle':
    case 'chineseTitle':
      return [`${head} ${s(field.value)}`];
    case 'authors':
      return [head, ...field.names.map((n) => `  name ${s(n)}`), ...field.separators.map((x) => `  sep ${s(x)}`)];
    case 'institutions':
      return [
        `${head} label=${s(field.label)} star=${s(field.star)} marker=${s(field.marker)}`,
        ...field.items.map(
          (item) =>
            `  item ${r(item.range)} name=${s(item.name)} translation=${s(item.translation)} open=${s(item.open)} close=${s(item.close)}` +
            (item.unbalanced ? ` unbalanced=${item.unbalanced}@${item.unbalancedAt ? r(item.unbalancedAt) : '?'}` : ''),
        ),
        ...field.separators.map((x) => `  sep ${s(x)}`),
        ...(field.authorPairs ?? []).map((pair) => `  author ${s(pair.english)} = ${s(pair.chinese)}`),
      ];
    case 'topicHits':
      return [
        `${head} label=${s(field.label)} topic=${s(field.topic)} colon=${s(field.colon)}`,
        ...field.hits.map((hit) => `  hit ${r(hit.range)} keyword=${s(hit.keyword)} field=${s(hit.field)} open=${s(hit.open)} close=${s(hit.close)}`),
        ...field.separators.map((x) => `  sep ${s(x)}`),
        `  categoriesLabel ${s(field.categoriesLabel)}`,
        ...field.categories.map((c) => `  category ${s(c)}`),
        ...field.categorySeparators.map((x) => `  categorySep ${s(x)}`),
      ];
    default:
      return [`${head} label=${s(field.label)} value=${s(field.value)}`, ...field.links.map((l) => `  link ${l.kind} ${s(l)} -> ${l.target}`)];
  }
}
