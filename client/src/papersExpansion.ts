/**
 * Which groups of the Papers view are expanded, by id, over refreshes and switches of grouping
 * and filter. Group ids are stable and name their path (`topic:数学推理/reasoning`), so a group
 * that exists again after a switch (back to a grouping, a filter cleared) comes back expanded.
 */
import * as vscode from 'vscode';

/**
 * @example
 * const expansion = new PapersExpansion(treeView);
 * item.collapsibleState = expansion.stateOf(node.id);
 */
export class PapersExpansion implements vscode.Disposable {
  private readonly expanded = new Set<string>();
  private readonly disposables: vscode.Disposable[];

  constructor(treeView: vscode.TreeView<{ readonly id: string }>) {
    this.disposables = [
      treeView.onDidExpandElement((event) => this.expanded.add(event.element.id)),
      treeView.onDidCollapseElement((event) => this.expanded.delete(event.element.id)),
    ];
  }

  /** Whether the group was expanded when last seen. */
  isExpanded(id: string): boolean {
    return this.expanded.has(id);
  }

  /** The collapsible state a group's tree item starts in. */
  stateOf(id: string): vscode.TreeItemCollapsibleState {
    return this.isExpanded(id) ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
  }

  dispose(): void {
    this.disposables.forEach((disposable) => disposable.dispose());
  }
}
