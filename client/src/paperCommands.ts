/**
 * The context menu of a paper in the Papers view: open it, open it to the side, copy its
 * titles, reveal it in its file. Each command takes the view's element (what VS Code passes from
 * the menu) and, from the keyboard, falls back to the view's selected paper.
 */
import * as vscode from 'vscode';
import type { PaperNode } from '../../server/src/protocol';
import type { PapersElement, PapersView } from './papersView';

/** The commands of the menu, as package.json declares them. */
export const PAPER_COMMANDS = {
  open: 'paperDigest.openPaper',
  openToSide: 'paperDigest.openPaperToSide',
  copyTitle: 'paperDigest.copyPaperTitle',
  copyTitles: 'paperDigest.copyPaperTitles',
  reveal: 'paperDigest.revealPaperInFile',
} as const;

function range(value: PaperNode['range']): vscode.Range {
  return new vscode.Range(value.start.line, value.start.character, value.end.line, value.end.character);
}

/** The text both titles are copied as: the English title, then the Chinese one on its own line. */
export function bothTitles(node: Pick<PaperNode, 'title' | 'chineseTitle'>): string {
  return node.chineseTitle ? `${node.title}\n${node.chineseTitle}` : node.title;
}

/**
 * Opens the paper's file at the entry: the cursor at the start of the English title, or (for
 * Reveal in File) the whole title selected and scrolled to the middle.
 */
export async function openPaper(node: PaperNode, options: { side?: boolean; selectTitle?: boolean } = {}): Promise<vscode.TextEditor> {
  const title = range(node.selectionRange);
  const selection = options.selectTitle ? title : new vscode.Range(title.start, title.start);
  const editor = await vscode.window.showTextDocument(vscode.Uri.parse(node.uri), {
    selection,
    preview: !options.side && !options.selectTitle,
    viewColumn: options.side ? vscode.ViewColumn.Beside : undefined,
  });
  if (options.selectTitle) {
    editor.revealRange(title, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
  return editor;
}

/**
 * Registers the commands of a paper's context menu.
 *
 * @example
 * context.subscriptions.push(...registerPaperCommands(papersView));
 * await vscode.commands.executeCommand('paperDigest.copyPaperTitles', element);
 */
export function registerPaperCommands(view: PapersView): vscode.Disposable[] {
  const paperOf = (element: PapersElement | undefined): PaperNode | undefined => {
    const node = (element ?? view.treeView.selection[0])?.node;
    return node?.kind === 'paper' ? node : undefined;
  };
  const withPaper = <T>(run: (node: PaperNode) => Thenable<T>) => async (element?: PapersElement): Promise<T | undefined> => {
    const node = paperOf(element);
    return node ? run(node) : undefined;
  };
  return [
    vscode.commands.registerCommand(PAPER_COMMANDS.open, withPaper((node) => openPaper(node))),
    vscode.commands.registerCommand(PAPER_COMMANDS.openToSide, withPaper((node) => openPaper(node, { side: true }))),
    vscode.commands.registerCommand(PAPER_COMMANDS.reveal, withPaper((node) => openPaper(node, { selectTitle: true }))),
    vscode.commands.registerCommand(PAPER_COMMANDS.copyTitle, withPaper(async (node) => {
      await vscode.env.clipboard.writeText(node.title);
      return node.title;
    })),
    vscode.commands.registerCommand(PAPER_COMMANDS.copyTitles, withPaper(async (node) => {
      const text = bothTitles(node);
      await vscode.env.clipboard.writeText(text);
      return text;
    })),
  ];
}
