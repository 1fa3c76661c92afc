/**
 * Rule pages in the Markdown preview. Each diagnostic links (its `codeDescription`) to the rule's
 * page, `docs/rules/<code>.md` in the installed extension; the server sends that file: link so
 * that every LSP client can open it. VS Code would open it as raw Markdown, from the Problems
 * panel, the hover or the peek alike, so when a rule page comes up in a text editor it is shown
 * in the Markdown preview instead, in the same place. `paperDigest.openRule` opens a page by code.
 */
import * as vscode from 'vscode';
import { showInformation } from './notifications';

export const OPEN_RULE_COMMAND = 'paperDigest.openRule';

/** The user-visible strings, in one place (through vscode.l10n). */
const TEXT = {
  get noSuchPage(): string { return vscode.l10n.t('Paper Digest: no such rule page.'); },
};

/**
 * Whether a URI is one of the extension's rule pages: a Markdown file of docs/rules, or of one
 * folder below it (the pages of a language, `docs/rules/zh-cn/`).
 *
 * @example
 * isRulePage(Uri.file('/ext/docs/rules/category-case.md'), Uri.file('/ext/docs/rules/')) // true
 */
export function isRulePage(uri: vscode.Uri, rulesFolder: vscode.Uri): boolean {
  const folder = rulesFolder.path.endsWith('/') ? rulesFolder.path : `${rulesFolder.path}/`;
  const rest = uri.path.slice(folder.length);
  return uri.scheme === rulesFolder.scheme && uri.path.startsWith(folder) && /^(?:[A-Za-z-]+\/)?[a-z0-9-]+\.md$/.test(rest);
}

/** Shows a Markdown file in the preview, in the active editor group. */
async function showPreview(uri: vscode.Uri): Promise<void> {
  await vscode.commands.executeCommand('markdown.showPreview', uri);
}

/** Closes the text editor tabs of a URI (its preview replaces them). */
async function closeTextTabs(uri: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString());
  if (tabs.length > 0) {
    await vscode.window.tabGroups.close(tabs, true);
  }
}

/**
 * Registers the command and the switch of rule pages to the preview.
 *
 * @example
 * context.subscriptions.push(...registerRulePages(context.extensionUri, context.extensionMode));
 * await vscode.commands.executeCommand('paperDigest.openRule', 'category-case');
 */
export function registerRulePages(extensionUri: vscode.Uri, mode: vscode.ExtensionMode): vscode.Disposable[] {
  const rulesFolder = vscode.Uri.joinPath(extensionUri, 'docs', 'rules');
  // Run from its sources (F5), the extension's rule pages are files its developer edits.
  const switchToPreview = mode !== vscode.ExtensionMode.Development;
  const switching = new Set<string>();
  const toPreview = async (editor: vscode.TextEditor | undefined): Promise<void> => {
    const uri = editor?.document.uri;
    if (!switchToPreview || !uri || !isRulePage(uri, rulesFolder) || switching.has(uri.toString())) {
      return;
    }
    switching.add(uri.toString());
    try {
      await showPreview(uri);
      await closeTextTabs(uri);
    } finally {
      switching.delete(uri.toString());
    }
  };
  void toPreview(vscode.window.activeTextEditor);
  return [
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      toPreview(editor).catch(() => undefined);
    }),
    vscode.commands.registerCommand(OPEN_RULE_COMMAND, async (rule: unknown) => {
      // A rule code (`category-case`) or the page's URI, as a string or a Uri.
      const uri = rule instanceof vscode.Uri ? rule : typeof rule === 'string' && /^[a-z-]+$/.test(rule) ? vscode.Uri.joinPath(rulesFolder, `${rule}.md`) : typeof rule === 'string' ? vscode.Uri.parse(rule) : undefined;
      if (!uri || !isRulePage(uri, rulesFolder)) {
        void showInformation(TEXT.noSuchPage);
        return undefined;
      }
      await showPreview(uri);
      return uri;
    }),
  ];
}
