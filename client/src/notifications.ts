/**
 * The extension's notifications, with their text made plain first. VS Code renders
 * `[label](command:…)`, `[label](https://…)` and `[label](file:…)` in a notification's message as
 * a link, and opens a command link with its arguments when clicked: a message that names a topic,
 * a filter, a file or a path carries document text, which must not become one. Control and
 * bidirectional characters are replaced as in the Papers view's labels (`notificationText`).
 */
import * as vscode from 'vscode';
import { notificationText } from './tooltip';

export function showInformation<T extends string>(message: string, ...items: T[]): Thenable<T | undefined> {
  return vscode.window.showInformationMessage(notificationText(message), ...items);
}

export function showWarning<T extends string>(message: string, ...items: T[]): Thenable<T | undefined> {
  return vscode.window.showWarningMessage(notificationText(message), ...items);
}

export function showError<T extends string>(message: string, ...items: T[]): Thenable<T | undefined> {
  return vscode.window.showErrorMessage(notificationText(message), ...items);
}
