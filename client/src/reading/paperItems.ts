/**
 * How a paper's reading state shows in the Papers view: the icon (starred, unread, read), the
 * description (tags, score in *For you*, repeat), the context value the menus' `when` clauses
 * read, the tooltip's state, note, score and reasons, and repeats dimmed through a file
 * decoration on the item's `resourceUri`.
 */
import * as vscode from 'vscode';
import type { PaperNode, PapersGrouping } from '../../../server/src/protocol';
import { plainLabel, wellFormed } from '../../../server/src/service/text';
import { MAX_LABEL_LENGTH, MAX_SUMMARY_LENGTH } from '../../../server/src/service/features/tree';
import { tooltipText } from '../tooltip';

/** The URI scheme of the Papers view's paper items, for the decoration that dims repeats. */
export const PAPER_ITEM_SCHEME = 'paper-digest-paper';

/**
 * The context value of a paper item: `paperDigest.paper`, then `.duplicate`, `.read` or
 * `.unread`, `.starred` or `.unstarred`, `.tagged` when it has tags.
 *
 * @example
 * paperContextValue({ read: false, starred: true, duplicate: false, tags: [] }) // 'paperDigest.paper.unread.starred'
 */
export function paperContextValue(node: Pick<PaperNode, 'read' | 'starred' | 'duplicate' | 'tags'>): string {
  return ['paperDigest.paper', node.duplicate ? 'duplicate' : '', node.read ? 'read' : 'unread', node.starred ? 'starred' : 'unstarred', node.tags.length > 0 ? 'tagged' : '']
    .filter((part) => part)
    .join('.');
}

/** The words of a paper's state: `starred`, `unread` or `read`, `repeat`. */
export function stateWords(node: PaperNode): string[] {
  return [node.starred ? vscode.l10n.t('starred') : '', node.read ? vscode.l10n.t('read') : vscode.l10n.t('unread'), node.isNew ? '' : vscode.l10n.t('repeat')].filter((word) => word);
}

/** A score as shown: at most one decimal, with its sign when negative. */
export function scoreText(score: number): string {
  return Number.isInteger(score) ? `${score}` : score.toFixed(1);
}

/**
 * Adds the reading state to a paper's tree item (made by the Papers view from the node).
 * `grouping` is the view's grouping: *For you* puts the score first in the description.
 */
export function decoratePaperItem(item: vscode.TreeItem, node: PaperNode, grouping: PapersGrouping): vscode.TreeItem {
  if (node.paperKey === undefined) {
    return item; // A server without the reading workflow.
  }
  item.iconPath = node.starred
    ? new vscode.ThemeIcon('star-full', new vscode.ThemeColor('charts.yellow'))
    : node.read
      ? new vscode.ThemeIcon('pass', new vscode.ThemeColor('disabledForeground'))
      : new vscode.ThemeIcon('circle-filled', new vscode.ThemeColor('charts.blue'));
  const parts = [
    grouping === 'forYou' ? vscode.l10n.t('score {0}', scoreText(node.score)) : '',
    typeof item.description === 'string' ? item.description : '',
    node.tags.map((tag) => `#${plainLabel(tag, MAX_LABEL_LENGTH)}`).join(' '),
    node.isNew ? '' : vscode.l10n.t('repeat'),
  ].filter((part) => part);
  item.description = parts.join(' · ');
  item.contextValue = paperContextValue(node);
  // Repeats are dimmed by the decoration provider; the URI names nothing on disk. An id may hold
  // a lone surrogate of the document's text, which encodeURIComponent cannot encode.
  item.resourceUri = vscode.Uri.from({ scheme: PAPER_ITEM_SCHEME, path: `/${node.isNew ? 'new' : 'repeat'}/${encodeURIComponent(wellFormed(node.id))}` });
  const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip : new vscode.MarkdownString();
  // Tags, notes, reasons (which quote topics and names as written) and paths are user and
  // document text: escaped, as the rest of the tooltip is (tooltip.ts). `appendText` escapes too
  // little: it leaves addresses that a renderer turns into links.
  const paragraph = (text: string, max = MAX_LABEL_LENGTH) => tooltip.appendMarkdown(`\n\n${tooltipText(text, max)}`);
  tooltip.appendMarkdown('\n\n---');
  paragraph(stateWords(node).join(' · ') + (node.tags.length > 0 ? ` · ${vscode.l10n.t('tags: {0}', node.tags.join(', '))}` : ''), MAX_SUMMARY_LENGTH);
  if (node.note) {
    paragraph(vscode.l10n.t('Note: {0}', node.note), MAX_SUMMARY_LENGTH);
  }
  if (node.score !== 0 || node.reasons.length > 0) {
    paragraph(vscode.l10n.t('Score {0}', scoreText(node.score)));
    for (const reason of node.reasons) {
      paragraph(`• ${reason}`);
    }
  }
  if (!node.isNew && node.firstSeen) {
    paragraph(vscode.l10n.t('First seen in {0}', `${vscode.workspace.asRelativePath(vscode.Uri.parse(node.firstSeen.uri))}:${node.firstSeen.range.start.line + 1}`));
  }
  item.tooltip = tooltip;
  const label = item.accessibilityInformation?.label ?? node.title;
  item.accessibilityInformation = { label: `${label}, ${stateWords(node).join(', ')}${grouping === 'forYou' ? `, ${vscode.l10n.t('score {0}', scoreText(node.score))}` : ''}` };
  return item;
}

/** Dims the repeats of the Papers view (papers first seen in an earlier digest) and marks them. */
export class RepeatDecorations implements vscode.FileDecorationProvider {
  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if (uri.scheme !== PAPER_ITEM_SCHEME || !uri.path.startsWith('/repeat/')) {
      return undefined;
    }
    const decoration = new vscode.FileDecoration('↺', vscode.l10n.t('Seen in an earlier digest'), new vscode.ThemeColor('disabledForeground'));
    decoration.propagate = false;
    return decoration;
  }
}
